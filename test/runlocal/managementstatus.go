package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// managementStatus runs `status --hosted-clusters` and `status
// --hosted-cluster` at each played step, prints what they show, and keeps
// what they showed that HyperShift's code does not make true then.
type managementStatus struct {
	walk walkthrough
	// failures are the steps at which a command did not say what it
	// should, with what it printed.
	failures []string
}

// managementWant is what the commands must print at a step: by command
// line, patterns each of which matches a line of its output.
type managementWant map[string][]*regexp.Regexp

// fleet and detail are the command lines of the fleet's table and of one
// hosted cluster.
func fleet() string { return "status --hosted-clusters" }
func detail(cluster string) string {
	return "status --hosted-cluster " + clustersNamespace + "/" + cluster
}

// managementExpectations are what HyperShift's code makes true at each
// moment, as the commands print it:
//   - a control plane is Progressing while the guest CVO's history says
//     Partial, at the CVO's own count (pkg/cvo/status.go "N of M done"),
//     and Completed once the entry is (hostedcluster_controller.go
//     computeClusterVersionStatus);
//   - a NodePool's version changes only once its rollout is complete
//     (nodepool_controller.go), so its cluster counts it updated then, and
//     a Replace NodePool's Machines count by their release annotation
//     meanwhile, the one being deleted held by its drain (cluster-api
//     machine drain.go);
//   - a minor update is Blocked while the guest says
//     ClusterVersionUpgradeable=False (isProgressing, isUpgrading), with no
//     target: the guest never sees it;
//   - an InPlace NodePool counts by the in-place upgrader's annotation
//     (inplaceupgrader.go);
//   - a new configuration rolls out with the release unchanged while
//     UpdatingConfig is True (nodepool conditions.go), its machines
//     counted by the MachineDeployment's up-to-date replicas.
func managementExpectations(moment string) managementWant {
	switch moment {
	case "idle":
		return managementWant{fleet(): {
			regexp.MustCompile(`^clusters/payments\s+.*\s+Completed\s+1 of 1\s+-\s+-$`),
			regexp.MustCompile(`^clusters/ledger\s+.*\s+Completed\s+0 of 1\s`),
			regexp.MustCompile(`^clusters/billing\s+.*\s+Completed\s+0 of 1\s`),
		}}
	case "payments updating":
		return managementWant{
			fleet(): {regexp.MustCompile(`^clusters/payments\s+4\.17\.2 -> 4\.17\.3\s+Progressing 50%\s+0 of 1\s`)},
			detail(paymentsCluster): {
				regexp.MustCompile(`^Assessment:\s+Progressing$`),
				regexp.MustCompile(`^Target Version:\s+4\.17\.3 \(from 4\.17\.2\)$`),
				regexp.MustCompile(`^Completion:\s+50%$`),
			},
		}
	case "payments updated":
		return managementWant{fleet(): {regexp.MustCompile(`^clusters/payments\s+4\.17\.2 -> 4\.17\.3\s+Completed\s+0 of 1\s`)}}
	case "ledger held by a drain":
		return managementWant{
			// A drain begun just now is no problem yet.
			fleet(): {regexp.MustCompile(`^clusters/ledger\s+4\.17\.2 -> 4\.17\.3\s+Completed\s+0 of 1\s+~\d+m\s+-$`)},
			detail(ledgerCluster): {
				regexp.MustCompile(`^Upgrade Type:\s+Replace$`),
				regexp.MustCompile(`^Machines:\s+1 of 3 updated \(Machines\)$`),
				regexp.MustCompile(`^Held By:\s+Machine ledger-workers-a \(node ledger-workers-a-node\): DrainingNode since`),
				regexp.MustCompile(`^\s+\* Pod ledger/api-0: cannot evict pod as it would violate the pod's disruption budget\.`),
			},
		}
	case "ledger replaced":
		return managementWant{fleet(): {regexp.MustCompile(`^clusters/ledger\s+.*\s+Completed\s+1 of 1\s+-\s+-$`)}}
	case "ledger new configuration":
		return managementWant{detail(ledgerCluster): {
			regexp.MustCompile(`^Assessment:\s+Progressing$`),
			regexp.MustCompile(`^Target Version:\s+4\.17\.3 \(a new configuration\)$`),
			regexp.MustCompile(`^Machines:\s+1 of 3 updated \(MachineSets\)$`),
		}}
	case "billing blocked":
		return managementWant{
			fleet(): {regexp.MustCompile(`^clusters/billing\s+4\.17\.3 -> \?\s+Blocked\s+`)},
			detail(billingCluster): {
				regexp.MustCompile(`^Assessment:\s+Blocked$`),
				regexp.MustCompile(`\sClusterVersionUpgradeable\s+HyperShift does not start the minor update to ` + regexp.QuoteMeta("quay.io/openshift-release-dev/ocp-release@sha256:4181")),
				regexp.MustCompile(`^Upgrade Type:\s+InPlace$`),
				regexp.MustCompile(`^Machines:\s+1 of 2 updated \(InPlaceUpgrader\)$`),
			},
		}
	}
	return nil
}

// show runs each command of the step until it prints what the step makes
// true, at most statusWait, and prints its output.
func (s *managementStatus) show(ctx context.Context, moment string) error {
	want := managementExpectations(moment)
	lines := []string{fleet(), detail(paymentsCluster), detail(ledgerCluster), detail(billingCluster)}
	for _, command := range lines {
		patterns, checked := want[command]
		if !checked && command != fleet() {
			continue
		}
		args := strings.Fields(command)
		deadline := time.Now().Add(statusWait)
		var out string
		var missing []string
		for {
			var err error
			if out, _, err = s.walk.quietly(ctx, args); err != nil {
				return interrupted(ctx, err)
			}
			missing = missingLines(out, patterns)
			if len(missing) == 0 || time.Now().After(deadline) || !sleep(ctx, time.Second) {
				break
			}
		}
		say("%s: $ %s", moment, s.walk.commandLine(args))
		printOutput(out)
		if len(missing) > 0 && ctx.Err() == nil {
			failure := fmt.Sprintf("%s: %s did not print %s", moment, command, strings.Join(missing, ", "))
			say("%s", failure)
			s.failures = append(s.failures, failure)
		}
	}
	return nil
}

// upgrade runs the upgrade command, and keeps a failure unless it exits
// with code.
func (s *managementStatus) upgrade(ctx context.Context, code int, args ...string) error {
	args = append([]string{"upgrade"}, args...)
	out, got, err := s.walk.quietly(ctx, args)
	if err != nil {
		return err
	}
	say("$ %s", s.walk.commandLine(args))
	printOutput(out)
	if got != code {
		s.failures = append(s.failures, fmt.Sprintf("%s exited %d, want %d", strings.Join(args, " "), got, code))
	}
	return nil
}

// missingLines are the patterns no line of out matches.
func missingLines(out string, patterns []*regexp.Regexp) []string {
	var missing []string
	lines := strings.Split(out, "\n")
	for _, re := range patterns {
		found := false
		for _, l := range lines {
			if re.MatchString(l) {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, fmt.Sprintf("a line matching %q", re))
		}
	}
	return missing
}
