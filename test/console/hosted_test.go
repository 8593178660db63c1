package console

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	"github.com/update-insights/update-insights-operator/pkg/hostedview"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
	"github.com/update-insights/update-insights-operator/test/internal/consolestandin"
	"github.com/update-insights/update-insights-operator/test/internal/hostedobjects"
)

// hostedFile holds the documented management cluster's insights, and
// hostedGolden what the command prints of them at hostedMoment
// (docs/hosted-clusters.md), which --now says as hostedNow.
const hostedFile = "../testdata/docs/hosted-clusters.yaml"

var (
	hostedGolden = filepath.Join("..", "testdata", "golden", "hosted")
	hostedMoment = time.Date(2026, 12, 2, 13, 0, 0, 0, time.UTC)
	hostedNow    = hostedMoment.Format(time.RFC3339)
)

// hostedFacts is what browse.js reads from the hosted clusters' page and
// tab.
type hostedFacts struct {
	Nav      []navFacts `json:"nav"`
	Missing  *string    `json:"missing"`
	Sections []struct {
		Kind  string `json:"kind"`
		Title string `json:"title"`
		// Severity is the status of the section's assessment label, nil
		// without one.
		Severity  *string `json:"severity"`
		Measure   *string `json:"measure"`
		Completed *string `json:"completed"`
		// Terms are each line's term, then its value's lines.
		Terms    [][]string `json:"terms"`
		Problems [][]string `json:"problems"`
	} `json:"sections"`
	Rows []struct {
		Attention string   `json:"attention"`
		Cells     []string `json:"cells"`
	} `json:"rows"`
	Followed string `json:"followed"`
}

// hostedSection is a section of status --hosted-cluster, or of the tab,
// as compared: whitespace as the page collapses it.
type hostedSection struct {
	Kind, Title, Completed string
	Terms                  [][]string
	Problems               [][]string
}

// TestHostedClustersInTheBrowser loads the documented management
// cluster's insights (test/testdata/docs/hosted-clusters.yaml) into a
// kube-apiserver with the insight CRDs and HyperShift's HostedCluster CRD,
// and a HostedCluster of each hosted cluster they name, whose page the
// tab is on. The page's clock is fixed at the goldens' moment, and
// status --hosted-clusters and --hosted-cluster run at that --now against
// the same API server, where they must print the goldens. The hosted
// clusters' page must show the command's rows in its order, every cell as
// it prints it, under a navigation item in Compute, each cluster's name
// leading to its tab; each tab every line of the control plane and of each
// NodePool and their problems' rows, in the command's order, the bar where
// it prints a completion, when the update started and its estimated
// finish, and the colour its assessment calls for. The operator does not
// run: the insights are as its tests write them, unchanged.
func TestHostedClustersInTheBrowser(t *testing.T) {
	c, in := startManagementCluster(t)
	out := c.command(t, "status", "--hosted-clusters", "--now", hostedNow)
	checkGolden(t, "fleet.txt", out)
	var fleet hostedview.Fleet
	if err := json.Unmarshal([]byte(c.command(t, "status", "--hosted-clusters", "--now", hostedNow, "-o", "json")), &fleet); err != nil {
		t.Fatal(err)
	}
	if len(fleet.Clusters) == 0 {
		t.Fatal("status --hosted-clusters -o json lists no hosted cluster")
	}

	t.Run("hosted clusters", func(t *testing.T) {
		var facts hostedFacts
		followed := fleet.Clusters[len(fleet.Clusters)-1]
		browse(t, browseSpec{URL: c.standin.URL, Mode: "hosted-clusters", Now: hostedNow, Namespace: followed.Namespace, Name: followed.Name,
			Screenshot: "hosted-clusters.png"}, &facts)
		want := fleetTable(out)
		var shown [][]string
		var attention, wantAttention []string
		for _, r := range facts.Rows {
			shown = append(shown, r.Cells)
			attention = append(attention, r.Attention)
		}
		for _, cl := range fleet.Clusters {
			wantAttention = append(wantAttention, string(cl.Attention))
		}
		if diff := cmp.Diff(want, shown); diff != "" {
			t.Errorf("the page's rows (+) are not what status --hosted-clusters printed (-):\n%s", diff)
		}
		if diff := cmp.Diff(wantAttention, attention); diff != "" {
			t.Errorf("the page's rows need attention (+) not as status --hosted-clusters -o json says (-):\n%s", diff)
		}
		if diff := cmp.Diff([]navFacts{{Name: "Hosted cluster updates", Href: "/update-insights/hosted-clusters", Section: "compute"}}, facts.Nav); diff != "" {
			t.Errorf("the navigation items (+) are not the page's in Compute (-):\n%s", diff)
		}
		if tab := "/k8s/ns/" + followed.Namespace + "/hypershift.openshift.io~v1beta1~HostedCluster/" + followed.Name + "/update-insights"; facts.Followed != tab {
			t.Errorf("the link of %s/%s led to %q, not its tab %q", followed.Namespace, followed.Name, facts.Followed, tab)
		}
	})

	for _, cl := range fleet.Clusters {
		t.Run(cl.Name, func(t *testing.T) {
			text := c.command(t, "status", "--hosted-cluster", cl.Namespace+"/"+cl.Name, "--now", hostedNow)
			checkGolden(t, cl.Name+".txt", text)
			var facts hostedFacts
			browse(t, browseSpec{URL: c.standin.URL, Mode: "hosted-cluster", Now: hostedNow, Namespace: cl.Namespace, Name: cl.Name,
				Screenshot: "hosted-" + cl.Name + ".png"}, &facts)
			if facts.Missing != nil {
				t.Fatalf("the tab says %q", *facts.Missing)
			}
			want := hostedSections(text)
			var shown []hostedSection
			for _, s := range facts.Sections {
				got := hostedSection{Kind: s.Kind, Title: s.Title}
				if len(s.Problems) > 0 {
					got.Problems = s.Problems
				}
				if s.Completed != nil {
					got.Completed = *s.Completed
				}
				// The tab says when the update started and its estimated
				// finish beside the lines status prints.
				extra := map[string][]string{}
				for _, term := range s.Terms {
					if term[0] == "Started" || term[0] == "Estimated finish" {
						extra[term[0]] = term[1:]
						continue
					}
					got.Terms = append(got.Terms, folded(term))
				}
				shown = append(shown, got)
				if diff := cmp.Diff(startedAndFinish(in, s.Kind, s.Title, s.Terms), extra); diff != "" {
					t.Errorf("%s %s: the start and estimated finish shown (+) are not the insight's (-):\n%s", s.Kind, s.Title, diff)
				}
				if diff := cmp.Diff(completionOf(want, s.Kind, s.Title), deref(s.Measure)); diff != "" {
					t.Errorf("%s %s: the bar measures (+) not the completion status prints (-):\n%s", s.Kind, s.Title, diff)
				}
				if diff := cmp.Diff(hostedSeverityOf(want, s.Kind, s.Title), deref(s.Severity)); diff != "" {
					t.Errorf("%s %s: the assessment's colour (+) is not the one status's assessment and problems call for (-):\n%s", s.Kind, s.Title, diff)
				}
			}
			if diff := cmp.Diff(want, shown); diff != "" {
				t.Errorf("the tab (+) does not show what status --hosted-cluster printed (-):\n%s\nstatus printed:\n%s", diff, text)
			}
		})
	}
}

// startManagementCluster starts kube-apiserver and etcd with the insight
// CRDs and HyperShift's HostedCluster CRD as it ships
// (test/testdata/hypershift), creates the documented insights with their
// status and a HostedCluster of each name they hold, and serves the
// stand-in; it returns the insights read.
func startManagementCluster(t *testing.T) (*cluster, *hostedview.Insights) {
	t.Helper()
	crds, err := crdPaths("../../manifests/*.crd.yaml", "../testdata/hypershift/hostedclusters-*.crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, kubeconfig := startAPIServer(t, crds)
	in, err := hostedview.ReadInsights(hostedFile)
	if err != nil {
		t.Fatal(err)
	}
	c := &cluster{name: "management", kubeconfig: kubeconfig, kube: kubernetes.NewForConfigOrDie(cfg), insights: insightsclient.NewForConfigOrDie(cfg)}
	ctx := context.Background()
	hostedClusters := map[[2]string]bool{}
	for _, hc := range in.Clusters {
		hostedClusters[[2]string{hc.Namespace, hc.Name}] = true
	}
	for _, np := range in.Pools {
		hostedClusters[[2]string{np.Namespace, np.Status.HostedCluster}] = true
	}
	namespaces := map[string]bool{}
	dyn := dynamic.NewForConfigOrDie(cfg)
	for key := range hostedClusters {
		if !namespaces[key[0]] {
			namespaces[key[0]] = true
			if _, err := c.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: key[0]}}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		// The tab reads only the HostedCluster's namespace and name, as the
		// console hands it the object whose page it is: its release is
		// any the CRD takes.
		if _, err := dyn.Resource(hypershift.HostedClusters).Namespace(key[0]).Create(ctx, hostedobjects.HostedCluster(key[0], key[1], "4.17.3", nil), metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating HostedCluster %s/%s: %v", key[0], key[1], err)
		}
	}
	v1 := c.insights.InsightsV1alpha1()
	for _, hc := range in.Clusters {
		hc := hc.DeepCopy()
		// The API requires a condition's transition time, which the
		// documented fixtures leave out (the operator sets it when it
		// writes the condition); no view shows it.
		for i := range hc.Status.Conditions {
			if hc.Status.Conditions[i].LastTransitionTime.IsZero() {
				hc.Status.Conditions[i].LastTransitionTime = metav1.NewTime(hostedMoment)
			}
		}
		created, err := v1.HostedClusterProgressInsights(hc.Namespace).Create(ctx, hc, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		created.Status = hc.Status
		if _, err := v1.HostedClusterProgressInsights(hc.Namespace).UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("HostedClusterProgressInsight %s/%s: %v", hc.Namespace, hc.Name, err)
		}
	}
	for _, np := range in.Pools {
		np := np.DeepCopy()
		created, err := v1.NodePoolProgressInsights(np.Namespace).Create(ctx, np, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		created.Status = np.Status
		if _, err := v1.NodePoolProgressInsights(np.Namespace).UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("NodePoolProgressInsight %s/%s: %v", np.Namespace, np.Name, err)
		}
	}
	if c.standin, err = consolestandin.Start(cfg, pluginDir, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.standin.Close() })
	return c, in
}

// checkGolden fails unless what the command printed from the API server
// is the golden it prints from the documented file: the insights were
// loaded as documented.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	want, err := os.ReadFile(filepath.Join(hostedGolden, name))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Fatalf("status printed from the API server not %s (-want +got):\n%s", name, diff)
	}
}

// fleetTable reads the rows of status --hosted-clusters, each column
// starting where its heading does.
func fleetTable(out string) [][]string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	var starts []int
	for _, h := range []string{"NAMESPACE/NAME", "FROM -> TO", "CONTROL PLANE", "NODEPOOLS", "ETA", "PROBLEM"} {
		starts = append(starts, strings.Index(lines[0], h))
	}
	var rows [][]string
	for _, l := range lines[1:] {
		var row []string
		for i, start := range starts {
			end := len(l)
			if i+1 < len(starts) {
				end = min(starts[i+1], len(l))
			}
			row = append(row, strings.TrimSpace(l[min(start, len(l)):end]))
		}
		rows = append(rows, row)
	}
	return rows
}

// hostedSections reads what status --hosted-cluster prints: each section's
// "Key: value" lines with the lines that continue them, the line of a
// completed update, and the Problems table's rows.
func hostedSections(out string) []hostedSection {
	var sections []hostedSection
	lines := strings.Split(out, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "= ") && strings.HasSuffix(l, " ="):
			kind, title, _ := strings.Cut(strings.Trim(l, "= "), ": ")
			sections = append(sections, hostedSection{Kind: kind, Title: title})
		case len(sections) == 0 || l == "":
		case l == "Problems":
			rows := table(lines[i+1:])
			for _, r := range rows {
				sections[len(sections)-1].Problems = append(sections[len(sections)-1].Problems, folded(r))
			}
			i += len(rows) + 1
		case strings.HasPrefix(l, "Update to "):
			sections[len(sections)-1].Completed = l
		case strings.HasPrefix(l, strings.Repeat(" ", 17)):
			s := &sections[len(sections)-1]
			s.Terms[len(s.Terms)-1] = append(s.Terms[len(s.Terms)-1], folded([]string{l})...)
		case keyValue.MatchString(l):
			m := keyValue.FindStringSubmatch(l)
			s := &sections[len(sections)-1]
			s.Terms = append(s.Terms, folded([]string{m[1], m[2]}))
		}
	}
	return sections
}

// folded collapses each string's white space, as the page's text does.
func folded(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = strings.Join(strings.Fields(c), " ")
	}
	return out
}

// termOf is the value of a section's term, "" without it.
func termOf(sections []hostedSection, kind, title, term string) string {
	for _, s := range sections {
		if s.Kind != kind || s.Title != title {
			continue
		}
		for _, t := range s.Terms {
			if t[0] == term {
				return t[1]
			}
		}
	}
	return ""
}

// completionOf is what a section's bar must measure: the completion status
// prints of it, "<nil>" (no bar) where it prints none.
func completionOf(sections []hostedSection, kind, title string) string {
	if c := termOf(sections, kind, title, "Completion"); c != "" {
		return c
	}
	return "<nil>"
}

// hostedSeverityOf is the colour a section's assessment calls for, as
// status prints it (console-plugin/src/view/severity.ts hostedSeverity):
// danger when the update fails, stalls, is blocked or degraded, success
// once completed, else the worst problem's, else info while it
// progresses; "<nil>" (no label) for a control plane whose insight is
// missing.
func hostedSeverityOf(sections []hostedSection, kind, title string) string {
	for _, s := range sections {
		if s.Kind != kind || s.Title != title {
			continue
		}
		assessment := termOf(sections, kind, title, "Assessment")
		switch {
		case s.Completed != "" || assessment == "Completed":
			return "success"
		case strings.HasPrefix(assessment, "? (no HostedClusterProgressInsight"):
			return "<nil>"
		case assessment == "Failing" || assessment == "Stalled" || assessment == "Blocked" || assessment == "Degraded":
			return "danger"
		}
		worst := "none"
		for _, p := range s.Problems {
			switch p[1] {
			case "Critical", "Error":
				return "danger"
			case "Warning":
				worst = "warning"
			}
		}
		if worst == "none" && assessment == "Progressing" {
			return "info"
		}
		return worst
	}
	return "<nil>"
}

// startedAndFinish is what the tab must say beside a section's lines
// while its update is under way (status prints its Duration then): when it
// started and, while ahead, its estimated finish, from its insight.
func startedAndFinish(in *hostedview.Insights, kind, title string, terms [][]string) map[string][]string {
	out := map[string][]string{}
	duration := false
	for _, t := range terms {
		duration = duration || t[0] == "Duration"
	}
	if !duration {
		return out
	}
	namespace, name, _ := strings.Cut(title, "/")
	var started, estimated *metav1.Time
	switch kind {
	case "Control Plane":
		for _, hc := range in.Clusters {
			if hc.Namespace == namespace && hc.Name == name {
				started, estimated = hc.Status.StartedAt, hc.Status.EstimatedCompletedAt
			}
		}
	case "NodePool":
		for _, np := range in.Pools {
			if np.Namespace == namespace && np.Name == name {
				started, estimated = np.Status.StartedAt, np.Status.EstimatedCompletedAt
			}
		}
	}
	if started != nil {
		out["Started"] = []string{started.UTC().Format(time.RFC3339)}
	}
	if estimated != nil && estimated.After(hostedMoment) && estimated.Sub(hostedMoment) <= 24*time.Hour {
		out["Estimated finish"] = []string{estimated.UTC().Format(time.RFC3339)}
	}
	return out
}
