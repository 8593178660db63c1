// Package recorded reads cluster objects recorded in files: `oc get -o yaml`
// output (a single object, a typed list or a `v1 List`), several YAML
// documents in one file, or a folder of such files, as a must-gather's
// cluster-scoped-resources folders hold them. It reads the insights too, so
// that what `analyze` prints can be read back.
package recorded

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

var decoder = newDecoder()

func newDecoder() runtime.Decoder {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{scheme.AddToScheme, configv1.Install, machineconfigurationv1.Install, insightsv1alpha1.AddToScheme} {
		if err := add(s); err != nil {
			panic(err)
		}
	}
	return serializer.NewCodecFactory(s).UniversalDeserializer()
}

// Read returns the objects in path, a file or a folder of .yaml, .yml and
// .json files (not descending into subfolders), with lists flattened into
// their items. Errors name the file at fault.
func Read(path string) ([]runtime.Object, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return readFile(path)
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".yaml", ".yml", ".json":
			if !e.IsDir() {
				files = append(files, filepath.Join(path, e.Name()))
			}
		}
	}
	sort.Strings(files)
	var objects []runtime.Object
	for _, f := range files {
		objs, err := readFile(f)
		if err != nil {
			return nil, err
		}
		objects = append(objects, objs...)
	}
	return objects, nil
}

func readFile(path string) ([]runtime.Object, error) {
	content, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	objects, err := Parse(content)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return objects, nil
}

// Parse returns the objects of one file's content, as Read does.
func Parse(content []byte) ([]runtime.Object, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(content)))
	var objects []runtime.Object
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return objects, nil
		}
		if err != nil {
			return nil, err
		}
		if isEmpty(doc) {
			continue
		}
		objs, err := decode(doc)
		if err != nil {
			return nil, err
		}
		objects = append(objects, objs...)
	}
}

// decode returns the object in doc, or the items of the list it holds.
func decode(doc []byte) ([]runtime.Object, error) {
	obj, _, err := decoder.Decode(doc, nil, nil)
	if err != nil {
		return nil, err
	}
	if obj == nil {
		// A null document, such as a list's bare "-" item.
		return nil, errors.New("a null object")
	}
	if !meta.IsListType(obj) {
		return []runtime.Object{obj}, nil
	}
	items, err := meta.ExtractList(obj)
	if err != nil {
		return nil, err
	}
	var objects []runtime.Object
	for i, item := range items {
		if item == nil {
			return nil, fmt.Errorf("item %d of the %s is null", i, KindOf(obj))
		}
		// Items of a `v1 List` arrive undecoded.
		if u, ok := item.(*runtime.Unknown); ok {
			decoded, err := decode(u.Raw)
			if err != nil {
				return nil, fmt.Errorf("item %d of the %s: %w", i, KindOf(obj), err)
			}
			objects = append(objects, decoded...)
			continue
		}
		objects = append(objects, item)
	}
	return objects, nil
}

// KindOf names the kind of a decoded object, for errors about a file that
// holds the wrong one.
func KindOf(o runtime.Object) string {
	if o == nil {
		return "null object"
	}
	if kind := o.GetObjectKind().GroupVersionKind().Kind; kind != "" {
		return kind
	}
	return fmt.Sprintf("%T", o)
}

func isEmpty(doc []byte) bool {
	for _, line := range bytes.Split(doc, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] != '#' && !bytes.Equal(line, []byte("---")) {
			return false
		}
	}
	return true
}
