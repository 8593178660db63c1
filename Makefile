# update-insights-operator

MODULE  := github.com/update-insights/update-insights-operator
BINARY  := update-insights-operator
OUTPUT  := _output
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo v0.0.0-unknown)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
DATE    ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -X $(MODULE)/pkg/version.versionFromGit=$(VERSION) \
           -X $(MODULE)/pkg/version.commitFromGit=$(COMMIT) \
           -X $(MODULE)/pkg/version.buildDate=$(DATE)

# The module proxy serves openshift modules without checksum database entries.
export GONOSUMDB := github.com/openshift

GO_FILES = $(shell find . -name '*.go' -not -path './vendor/*' -not -path './_output/*' -not -path './.cache/*')

.PHONY: all build test test-unit test-console-plugin test-console-e2e console-plugin console-plugin-bundle console-standin chromium node test-rules test-integration test-run-local test-run-local-managed test-run-local-hosted test-run-local-management testbin prometheus run-local measure measure-agreement outputs update update-codegen update-crds update-vendor \
	verify verify-gofmt verify-govet verify-generated verify-vendor fuzz clean

all: build

# The first build compiles every vendored dependency and prints nothing
# until it is done: the line before it says what it builds and how long.
build:
	@echo "building $(OUTPUT)/bin/$(BINARY): the first build compiles its dependencies and takes minutes (tens of them on a busy two-core machine), later builds seconds"
	go build -ldflags "$(LDFLAGS)" -o $(OUTPUT)/bin/$(BINARY) ./cmd/$(BINARY)

## test: unit tests (the documentation's among them), the console plugin's
## unit tests and bundle size, its end-to-end tests in a browser, the alerting rules
## under promtool, non-interactive runs of run-local (and of its managed
## mode and its hosted mode), and integration tests against a real
## kube-apiserver and etcd.
test: test-unit test-console-plugin test-console-e2e test-rules test-run-local test-run-local-managed test-run-local-hosted test-run-local-management test-integration

test-unit:
	go test ./pkg/... ./cmd/... ./test/manifests/... ./test/layers/... ./test/docs/... ./test/internal/... ./test/runlocal/... ./test/estimates/...

## console-plugin: install the console plugin's npm packages from its
## lockfile (the npm registry only; no install scripts run) and build it into
## console-plugin/dist (docs/console-plugin.md).
console-plugin: node
	cd console-plugin && npm ci --ignore-scripts --no-audit --no-fund && npm run build

## console-plugin-bundle: build the console plugin and copy it where the
## binary embeds it (pkg/consoleplugin/bundle/dist, as the Dockerfile does), so
## that the next `make build` serves it with serve-console-plugin; without it
## the binary answers 503 there.
console-plugin-bundle: console-plugin
	find pkg/consoleplugin/bundle/dist -mindepth 1 ! -name .placeholder -exec rm -rf {} +
	cp -R console-plugin/dist/. pkg/consoleplugin/bundle/dist/

## test-console-plugin: the plugin's unit tests (jest) and type check, and
## its bundle size, which fails above 500 kB.
test-console-plugin: console-plugin
	cd console-plugin && npm test && npm run typecheck && npm run size

## console-standin: build the console plugin and the console stand-in that
## loads it in a browser (console-plugin/e2e, docs/console-plugin.md).
console-standin: console-plugin
	cd console-plugin && npm run build-standin

## test-console-e2e: the built plugin in Debian's chromium, driven by
## playwright-core through the console stand-in, against the operator on
## recorded clusters in a real kube-apiserver: what the tab shows against
## status --details=all, Accept against pre-checks --accept, a user who may
## not patch UpdatePlans; screenshots in _output/console-e2e.
test-console-e2e: console-standin testbin chromium
	KUBEBUILDER_ASSETS="$$(hack/install-testbin.sh)" go test -count=1 -timeout 15m ./test/console/...

# Installs Debian's chromium when it is missing (no browser is downloaded).
chromium:
	@hack/install-chromium.sh

# Installs Debian's nodejs and npm when node or npm is missing.
node:
	@hack/install-node.sh

## test-rules: the PrometheusRule's alerts under promtool (Debian's
## prometheus package: make prometheus), on one cluster and on a fleet of
## 1,000 clusters as ACM's observability stores them, and the ACM
## dashboard's queries on that fleet in a real Prometheus.
test-rules: prometheus
	go test -timeout 30m ./test/rules/...

## fuzz: every fuzz target under pkg/, one after the other, each for
## FUZZTIME (FUZZPARALLEL workers), printing each one's executions and time.
FUZZTIME ?= 30s
fuzz:
	FUZZTIME=$(FUZZTIME) hack/fuzz.sh

# Builds kube-apiserver and etcd on first use (several minutes), then reuses them.
testbin:
	@hack/install-testbin.sh >/dev/null

# Installs Debian's prometheus package when no prometheus is on the PATH.
prometheus:
	@hack/install-prometheus.sh

test-integration: testbin prometheus
	KUBEBUILDER_ASSETS="$$(hack/install-testbin.sh)" go test -count=1 -timeout 20m ./test/integration/...

## run-local: run the operator against a local kube-apiserver and etcd, on a
## recorded cluster whose update is played forward, then left running for the
## pre-checks walkthrough (docs/administrators.md), with the console plugin
## served in the console stand-in (it prints the URL); Ctrl-C stops everything.
run-local: build testbin console-standin
	$(RUN_LOCAL)

# run-local's recipe, which test-run-local, test-run-local-managed,
# test-run-local-hosted and test-run-local-management run too: make runs the run-local target once per
# invocation, whatever flags another target asks, and they need not build the
# console stand-in.
RUN_LOCAL = go build -o $(OUTPUT)/bin/run-local ./test/runlocal && \
	KUBEBUILDER_ASSETS="$$(hack/install-testbin.sh)" $(OUTPUT)/bin/run-local --operator $(OUTPUT)/bin/$(BINARY) $(RUN_LOCAL_FLAGS)

# The same, fast and non-interactive (the stand-in served on a free port,
# when built): fails unless the insight goes from
# Progressing to Completed, no configuration rollout is left showing (in
# the pools' insights or the fleet gauge), the demonstration informer's warning reaches
# UpdateStatus after its Wait, the error of the CSV that fails midway
# reaches UpdateStatus and the status command's health section (and leaves
# once the CSV recovers), status says at each step where the image-mode
# pool's OS image build stands (building, failed in its pod's words with an
# Error health insight, retried, built, its nodes rolled), status names the
# pod and the budget that hold a worker's drain and then no longer, the
# walkthrough's commands print what
# docs/administrators.md shows, the stand-in (when built) serves the
# plugin and the insights, and everything stops cleanly.
test-run-local: RUN_LOCAL_FLAGS = --step=300ms --check --console-listen=127.0.0.1:0
test-run-local: build testbin
	$(RUN_LOCAL)

# The managed mode, fast and non-interactive: fails unless UpdateStatus shows
# the managed update awaiting its window and the status command prints it, the
# Managed Upgrade Operator's failed health check comes and goes in UpdateStatus,
# a step of the managed update is shown, the update completes with no
# configuration rollout left showing, and everything
# stops cleanly; the status command must print what docs/managed-upgrade.md
# shows.
test-run-local-managed: RUN_LOCAL_FLAGS = --managed --step=300ms --check --console-listen=127.0.0.1:0
test-run-local-managed: build testbin
	$(RUN_LOCAL)

# The hosted mode, fast and non-interactive: a HyperShift hosted cluster's
# control-plane update, an InPlace NodePool's update and a Replace
# NodePool's rollout beside a NodePool three minors behind; fails unless
# status says at each step what HyperShift's code makes true then (and what
# docs/administrators.md shows while the Replace NodePool rolls out), never
# "MachineConfigPool", the operator's ClusterOperator is Available in the
# hosted mode and not Degraded, and everything stops cleanly.
test-run-local-hosted: RUN_LOCAL_FLAGS = --hosted --step=300ms --check
test-run-local-hosted: build testbin
	$(RUN_LOCAL)

# The management mode, fast and non-interactive: three hosted clusters in
# HyperShift's and Cluster API's shapes (a control-plane update made with
# `upgrade --hosted-cluster` that completes, a Replace NodePool's rollout
# made with `upgrade --nodepool` and held by a drain, a minor update that
# `upgrade` refuses and HyperShift blocks beside an InPlace NodePool); fails
# unless status --hosted-clusters and --hosted-cluster say at each step what
# HyperShift's code makes true then, upgrade sets or refuses what HyperShift
# would, and everything stops cleanly.
test-run-local-management: RUN_LOCAL_FLAGS = --management --step=300ms --check
test-run-local-management: build testbin
	$(RUN_LOCAL)

## measure: print the performance figures (assessment cost, reaction time,
## the ACM dashboard's queries, the console plugin's first data at 250 nodes).
measure: testbin prometheus console-standin chromium
	hack/measure-performance.sh

## measure-agreement: print the share of what oc adm upgrade status printed
## for the recorded clusters that the status command reproduces.
measure-agreement:
	hack/measure-agreement.sh

## outputs: record what analyze and status print for every recorded cluster
## in _output/outputs; with COMPARE=DIR, fail naming the files that differ
## from the recording in DIR (record one with hack/outputs.sh --out DIR).
outputs: build
	hack/outputs.sh $(if $(COMPARE),--compare $(COMPARE))

## update: regenerate deepcopy, clients, listers, informers and CRDs.
update: update-codegen update-crds

update-codegen:
	hack/update-codegen.sh

update-crds:
	hack/update-crds.sh

update-vendor:
	GOFLAGS=-mod=mod go mod tidy
	go mod vendor

## verify: fail on generated-code drift, gofmt or vet findings, or a vendor tree that does not match go.mod.
verify: verify-gofmt verify-govet verify-vendor verify-generated

verify-gofmt:
	@out=$$(gofmt -l $(GO_FILES)); if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

verify-govet:
	go vet ./...

verify-vendor:
	hack/verify-vendor.sh

verify-generated:
	hack/verify-generated.sh

clean:
	rm -rf $(OUTPUT)
