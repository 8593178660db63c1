package main

import "testing"

func TestRelativeTo(t *testing.T) {
	testCases := []struct {
		name, dir, path, want string
	}{
		{name: "beneath the directory", dir: "/src/repo", path: "/src/repo/_output/run-local/kubeconfig", want: "_output/run-local/kubeconfig"},
		{name: "already relative", dir: "/src/repo", path: "_output/bin/update-insights-operator", want: "_output/bin/update-insights-operator"},
		{name: "relative, not clean", dir: "/src/repo", path: "./_output//run-local/../run-local/kubeconfig", want: "_output/run-local/kubeconfig"},
		{name: "the directory itself", dir: "/src/repo", path: "/src/repo", want: "."},
		{name: "outside the directory", dir: "/src/repo", path: "/var/tmp/run-local/kubeconfig", want: "/var/tmp/run-local/kubeconfig"},
		{name: "relative, leading outside", dir: "/src/repo", path: "../other/kubeconfig", want: "/src/other/kubeconfig"},
		{name: "a sibling whose name starts like the directory's", dir: "/src/repo", path: "/src/repo-2/kubeconfig", want: "/src/repo-2/kubeconfig"},
	}
	for _, tt := range testCases {
		t.Run(tt.name, func(t *testing.T) {
			if got := relativeTo(tt.dir, tt.path); got != tt.want {
				t.Errorf("relativeTo(%q, %q) = %q, want %q", tt.dir, tt.path, got, tt.want)
			}
		})
	}
}
