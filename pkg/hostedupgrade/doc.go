// Package hostedupgrade decides an update of a hosted cluster made where it
// is really made, on the management cluster: the release image to set in a
// HostedCluster's or a NodePool's spec.release.image, or why not, after the
// checks HyperShift's own controllers would make of it, from what the
// management cluster holds. It is pure: the upgrade command reads the
// objects and writes the image.
package hostedupgrade
