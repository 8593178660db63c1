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

// Format is a structured output format, as -o names it.
type Format string

// The formats Write prints.
const (
	JSON Format = "json"
	YAML Format = "yaml"
)

// Write prints v as indented JSON, or as YAML.
func Write(w io.Writer, v any, format Format) error {
	content, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	switch format {
	case YAML:
		if content, err = yaml.JSONToYAML(content); err != nil {
			return err
		}
	case JSON:
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
