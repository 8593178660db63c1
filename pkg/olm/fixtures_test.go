package olm

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

const (
	operatorsFixture = "../../test/testdata/olm/operators.yaml"
	// updatesFixture holds operators OLM is updating: two Subscriptions
	// on one Manual InstallPlan, and an old CSV OLM is replacing.
	updatesFixture = "../../test/testdata/olm/updates.yaml"
)

// updateStarted is when the fixture's cluster update started.
var updateStarted = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// load decodes a fixture of OLM's objects as a client would: through a
// scheme that knows the kinds only by the mirror's AddToScheme.
func load(t *testing.T, path string) Cluster {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	scheme := runtime.NewScheme()
	if err := operatorsv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	decoder := serializer.NewCodecFactory(scheme).UniversalDeserializer()
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var c Cluster
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return c
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		obj, _, err := decoder.Decode(doc, nil, nil)
		if err != nil {
			t.Fatalf("decoding %s: %v", path, err)
		}
		switch o := obj.(type) {
		case *operatorsv1alpha1.ClusterServiceVersion:
			c.CSVs = append(c.CSVs, o)
		case *operatorsv1alpha1.Subscription:
			c.Subscriptions = append(c.Subscriptions, o)
		case *operatorsv1alpha1.InstallPlan:
			c.InstallPlans = append(c.InstallPlans, o)
		default:
			t.Fatalf("%s holds a %T", path, obj)
		}
	}
}
