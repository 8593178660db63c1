package flags

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/update-insights/update-insights-operator/pkg/output"
)

func TestNow(t *testing.T) {
	current := time.Date(2024, 8, 5, 17, 30, 0, 0, time.UTC)
	testCases := []struct {
		value   string
		want    time.Time
		wantErr string
	}{
		{value: "", want: current},
		{value: "2024-08-05T17:23:22Z", want: time.Date(2024, 8, 5, 17, 23, 22, 0, time.UTC)},
		{value: "2024-08-05T17:23:22.000368975Z", want: time.Date(2024, 8, 5, 17, 23, 22, 368975, time.UTC)},
		{value: "2024-08-05T19:23:22+02:00", want: time.Date(2024, 8, 5, 17, 23, 22, 0, time.UTC)},
		{value: "yesterday", wantErr: `--now "yesterday" is not an RFC 3339 time such as 2024-08-02T10:13:00.5Z`},
		{value: "2024-08-05 17:23:22", wantErr: `--now "2024-08-05 17:23:22" is not an RFC 3339 time such as 2024-08-02T10:13:00.5Z`},
	}
	for _, tc := range testCases {
		t.Run(tc.value, func(t *testing.T) {
			got, err := Now(tc.value, clocktesting.NewFakePassiveClock(current))
			if diff := cmp.Diff(tc.wantErr, errorText(err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if !got.Equal(tc.want) {
				t.Errorf("Now(%q) = %v, want %v", tc.value, got, tc.want)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	testCases := []struct {
		value   string
		want    output.Format
		wantErr string
	}{
		{value: "json", want: output.JSON},
		{value: "yaml", want: output.YAML},
		{value: "xml", wantErr: `-o "xml": want json or yaml`},
		{value: "JSON", wantErr: `-o "JSON": want json or yaml`},
		{value: "", wantErr: `-o "": want json or yaml`},
	}
	for _, tc := range testCases {
		t.Run(tc.value, func(t *testing.T) {
			got, err := Format(tc.value)
			if diff := cmp.Diff(tc.wantErr, errorText(err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if got != tc.want {
				t.Errorf("Format(%q) = %q, want %q", tc.value, got, tc.want)
			}
		})
	}
}

func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Without a kubeconfig naming a cluster, the error says which files were
// looked for, not client-go's "try setting KUBERNETES_MASTER".
func TestKubeconfigNotFound(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, []byte("apiVersion: v1\nkind: Config\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const advice = "; set KUBECONFIG or pass --kubeconfig, as for oc or kubectl"
	testCases := []struct {
		name string
		env  string
		args []string
		// home stands for ~/.kube/config, which client-go reads when
		// KUBECONFIG is not set.
		home string
		want string
	}{
		{name: "KUBECONFIG not set, no ~/.kube/config", home: missing,
			want: "no kubeconfig to connect to a cluster with: $KUBECONFIG is not set, and " + missing + " does not exist" + advice},
		{name: "KUBECONFIG not set, ~/.kube/config empty", home: empty,
			want: "no kubeconfig to connect to a cluster with: $KUBECONFIG is not set, and " + empty + " names no cluster" + advice},
		{name: "KUBECONFIG names missing files", env: missing + string(os.PathListSeparator) + missing + "2",
			want: "no kubeconfig to connect to a cluster with: $KUBECONFIG is " + missing + string(os.PathListSeparator) + missing + "2, and no such file exists" + advice},
		{name: "KUBECONFIG names an empty file", env: missing + string(os.PathListSeparator) + empty,
			want: "no kubeconfig to connect to a cluster with: $KUBECONFIG is " + missing + string(os.PathListSeparator) + empty + ", and " + empty + " names no cluster" + advice},
		{name: "--kubeconfig names an empty file", args: []string{"--kubeconfig", empty},
			want: "no kubeconfig to connect to a cluster with: --kubeconfig " + empty + " names no cluster" + advice},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("KUBECONFIG", tc.env)
			// Not in a pod: client-go would fall back to its service account.
			t.Setenv("KUBERNETES_SERVICE_HOST", "")
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			k := NewKubeconfig(fs)
			if tc.home != "" {
				k.loadingRules.Precedence = []string{tc.home}
			}
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			_, err := k.Config()
			if diff := cmp.Diff(tc.want, errorText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}
