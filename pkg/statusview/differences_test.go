package statusview_test

import (
	"regexp"
	"slices"
	"strings"
)

// difference is a way in which this project's output deliberately differs
// from the reference's.
type difference struct {
	// files are the reference files it occurs in: case name and suffix.
	files []string
	// ours matches what this project prints; reference is what the
	// reference prints instead, with ours' submatches as ${1}, ${2}...
	ours      *regexp.Regexp
	reference string
	reason    string
}

func (d *difference) appliesTo(file string) bool { return slices.Contains(d.files, file) }

// both names a case's output without and with details.
func both(name string) []string { return []string{name + ".output", name + ".detailed-output"} }

const (
	degraded = "4.14.1-degraded"
	paused   = "4.14.1-paused-worker-pool"
	early    = "4.15.0-ec2-early"
	compact  = "4.16.0-compact"
	pdb      = "4.16.0-ec2-control-plane-updated-pdb-prohibits-draining"
	mco20m   = "4.15.0-ec2-unavailable-mco-20m"
	twoPools = "4.14.1-workers-started-updating-multiple-pools"
	multi    = "to-multi-arch"
)

// Why the differences exist, once each.
const (
	operatorSince = "SINCE is when the ClusterOperator's Progressing condition turned; kube-apiserver's " +
		"turned at the recording's last moment, and the reference's 6m8s does not follow it"
	nodePhase = "the insight cannot determine these nodes' phase (no configuration reported), " +
		"and says so; the reference calls them Pending"
	description = "the description is this project's wording: it quotes the node's own reason " +
		"and says why an unavailable node matters"
	wholeSeconds = "the insight API keeps times in whole seconds: an alert active since " +
		"15:39:33.75 is since 15:39:33, and so a second longer once rounded"
)

var differences = []difference{
	{
		files:     both(mco20m),
		ours:      regexp.MustCompile(`(?m)^((?:  Since:       )?1?6m3)6s\b`),
		reference: "${1}5s",
		reason:    wholeSeconds,
	},
	{
		files:     both(mco20m),
		ours:      regexp.MustCompile(`(?m)^((?:  Since:       )?24h8m5)5s\b`),
		reference: "${1}4s",
		reason:    wholeSeconds,
	},
	{
		files:     []string{early + ".detailed-output"},
		ours:      regexp.MustCompile(`(?m)^(kube-apiserver   )now     (NodeInstaller   .*)$`),
		reference: "${1}6m8s    ${2}",
		reason:    operatorSince,
	},
	{
		files:     both(pdb),
		ours:      regexp.MustCompile(`(?m)^(build0-gstfj-ci-(prowjobs-worker-d-ddnxd|tests-worker-b-d9vz2) +Unavailable +)Unknown `),
		reference: "${1}Pending ",
		reason:    nodePhase,
	},
	{
		files: []string{pdb + ".detailed-output"},
		ours: regexp.MustCompile(`(?m)^  Description: Node has a Ready=False condition with reason "KubeletNotReady" and message "kubelet is still setting up stuff"\. ` +
			`An unavailable node slows the update of its pool: the pool updates only so many unavailable nodes at a time\.$`),
		reference: `  Description: Node has a Ready!=True condition with Reason "Not ready" and message "kubelet is still setting up stuff"`,
		reason:    description,
	},
}

func lines(s string) []string { return strings.Split(s, "\n") }
