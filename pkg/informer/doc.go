// Package informer serves an UpdateInformer: a component that tells the
// update-insights operator, and through it the cluster's administrators,
// what it knows about a cluster update.
//
// The operator finds informers through UpdateInformer objects, calls each
// over HTTPS as the protocol says (pkg/informer/protocol/contract.md), and
// aggregates their insights into UpdateStatus (and UpdatePlans). This
// package is the informer's side of those calls: implement StatusInformer
// (insights about the update in progress), PlanInformer (what might go
// wrong in an update to a given release), or both, and NewServer serves
//
//   - discovery, announcing the handlers implemented, each with its timeout
//     (WithTimeout; 10 seconds by default, at most 30);
//   - updateInsights (GET with a body, or POST) from StatusInsights;
//   - updatePlanInsights (POST) from PlanInsights;
//
// and answers 404 for a call not implemented. The wire types, their
// validation and an insight's identity are in package protocol; the
// operator's side of the calls is package client.
//
// What the informer returns is checked against the contract before it is
// sent: an error, a panic or an answer that breaks the contract becomes a
// Failure answer whose message says why (the stack stays in the informer's
// log). apiVersion and kind are filled in, and an empty status.response
// means Success.
//
// To write an informer:
//
//   - Give each insight a UID that stays the same for as long as it reports
//     the same thing. The operator tells insights apart by
//     protocol.Identity: the informer's name, the scope type, the scope's
//     resources and the UID. Administrators accept risks in UpdatePlans by
//     that identity, so an insight whose UID or scope changes at every call
//     can never be accepted.
//   - Report every insight at every call: one no longer reported is
//     resolved and leaves UpdateStatus, unless its remediation says
//     resolved: false.
//   - Answer within the handler's timeout: the method's context ends with
//     it. When fresh data takes longer, answer Wait; the operator asks
//     again after 5 seconds, up to 6 times in a row.
//   - Use level status for normal progress ("Node rebooting", with an
//     estimatedFinish), and impact type Awaiting Window at level status when
//     a schedule holds the update of a scope.
//
// Serve it behind a Service with a serving certificate (on OpenShift, the
// service CA's), and register it:
//
//	apiVersion: openshift.muller.dev/v1alpha1
//	kind: UpdateInformer
//	metadata:
//	  name: my-informer
//	  annotations:
//	    update-insights.openshift.muller.dev/inject-ca-from-configmap: my-namespace/my-informer-ca
//	spec:
//	  clientConfig:
//	    service:
//	      namespace: my-namespace
//	      name: my-informer
//	      port: 443
//
// The operator reads no Secret unless allowed: grant its ServiceAccount
// (openshift-update-insights/update-insights-operator) get on the CA Secret
// with a Role and RoleBinding in its namespace, as the example of
// docs/informers.md does.
//
// The operator calls the Service's endpoints with the TLS server name
// <name>.<namespace>.svc, which the certificate must be for. It sends no
// credentials: an informer must not expect any, and must not put anything
// secret in its insights.
package informer
