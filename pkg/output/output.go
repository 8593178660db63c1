// Package output prints what the commands compute as structured data, and
// keeps their errors on one line.
package output

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/yaml"
)

// Write prints v as indented JSON, or as YAML when format is "yaml".
func Write(w io.Writer, v any, format string) error {
	content, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	switch format {
	case "yaml":
		if content, err = yaml.JSONToYAML(content); err != nil {
			return err
		}
	case "json":
		content = append(content, '\n')
	default:
		return fmt.Errorf("unknown output format %q: want json or yaml", format)
	}
	_, err = w.Write(content)
	return err
}

// OneLine keeps a multi-line complaint, such as a decoder's, on the one
// line an error message gets.
func OneLine(err error) error {
	return errors.New(strings.Join(strings.Fields(err.Error()), " "))
}
