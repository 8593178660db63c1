package hostedview_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/update-insights/update-insights-operator/pkg/hostedview"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/output"
)

// golden holds the text the views print for the fixtures (regenerate with
// `go test ./pkg/hostedview -run TestGolden -update`).
var golden = recordedtest.Golden("hosted")

// FleetFile is the fixtures as a file for status --from: the command's
// tests and docs/hosted-clusters.md read it, so that they show what these
// tests check.
var fleetFile = filepath.Join(filepath.Dir(recordedtest.Golden("")), "docs", "hosted-clusters.yaml")

func TestGolden(t *testing.T) {
	clusters, pools := fleet()
	f := hostedview.Build(clusters, pools, now)

	t.Run("fleet", func(t *testing.T) {
		var out bytes.Buffer
		if err := hostedview.WriteFleet(&out, &f); err != nil {
			t.Fatal(err)
		}
		recordedtest.CheckGolden(t, filepath.Join(golden, "fleet.txt"), out.Bytes())
		var structured bytes.Buffer
		if err := output.Write(&structured, f, output.JSON); err != nil {
			t.Fatal(err)
		}
		recordedtest.CheckGolden(t, filepath.Join(golden, "fleet.json"), structured.Bytes())
	})
	for _, c := range f.Clusters {
		t.Run(c.Name, func(t *testing.T) {
			var out bytes.Buffer
			if err := hostedview.WriteCluster(&out, &c, now); err != nil {
				t.Fatal(err)
			}
			recordedtest.CheckGolden(t, filepath.Join(golden, c.Name+".txt"), out.Bytes())
		})
	}
	t.Run("file", func(t *testing.T) {
		var content []byte
		for i := range clusters {
			content = appendDocument(t, content, &clusters[i])
		}
		for i := range pools {
			content = appendDocument(t, content, &pools[i])
		}
		recordedtest.CheckGolden(t, fleetFile, content)
		in, err := hostedview.ReadInsights(fleetFile)
		if err != nil {
			t.Fatal(err)
		}
		if read := hostedview.Build(in.Clusters, in.Pools, now); !equalJSON(t, read, f) {
			t.Errorf("%s does not read back as the fixtures", fleetFile)
		}
	})
}

func appendDocument(t *testing.T, content []byte, o any) []byte {
	t.Helper()
	doc, err := yaml.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	return append(append(content, "---\n"...), doc...)
}

func equalJSON(t *testing.T, a, b any) bool {
	t.Helper()
	var x, y bytes.Buffer
	if err := output.Write(&x, a, output.JSON); err != nil {
		t.Fatal(err)
	}
	if err := output.Write(&y, b, output.JSON); err != nil {
		t.Fatal(err)
	}
	return x.String() == y.String()
}
