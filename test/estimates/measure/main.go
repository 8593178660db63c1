// Command measure prints the estimates' mean absolute error over the
// replayed updates of package estimates, with the cluster's UpdateRecords
// and without them.
package main

import (
	"fmt"

	"github.com/update-insights/update-insights-operator/test/estimates"
)

func main() {
	with, without := estimates.Replay(true), estimates.Replay(false)
	fmt.Printf("Estimate error over %d replayed updates, each estimated from the updates before it (mean absolute error, minutes):\n", with.Updates)
	fmt.Printf("  %-34s %8s %8s %8s %16s\n", "METHOD", "CP 25%", "CP 50%", "CP 75%", "WORKERS AT START")
	row := func(name string, e estimates.Errors) {
		fmt.Printf("  %-34s %8.1f %8.1f %8.1f %16.1f\n", name, e.ControlPlane[25], e.ControlPlane[50], e.ControlPlane[75], e.Workers)
	}
	row("with the UpdateRecords", with)
	row("without them (oc adm upgrade status)", without)
}
