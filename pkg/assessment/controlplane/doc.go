// Package controlplane computes the desired status of the control plane's
// insights from the cluster objects they describe. It is pure: objects and a
// clock reading in, a status out; it reads no API and writes nothing, so the
// controllers and the offline `analyze` command share it.
package controlplane
