# Built by the OpenShift release tooling; `docker build` cannot run on the
# development machines, so this file is checked by review.
FROM registry.ci.openshift.org/ocp/builder:rhel-9-golang-1.25-openshift-4.21 AS builder
WORKDIR /go/src/github.com/update-insights/update-insights-operator
COPY . .
RUN make build

FROM registry.ci.openshift.org/ocp/4.21:base-rhel9
COPY --from=builder /go/src/github.com/update-insights/update-insights-operator/_output/bin/update-insights-operator /usr/bin/
# The CVO reads the payload manifests of a release operator from /manifests.
COPY manifests/*.yaml manifests/image-references /manifests/
USER 1001
ENTRYPOINT ["/usr/bin/update-insights-operator"]
LABEL io.openshift.release.operator=true \
      io.k8s.display-name="OpenShift Update Insights Operator" \
      io.k8s.description="Maintains insights that tell how a cluster update is going." \
      io.openshift.tags="openshift,update,insights"
