// Package alerts reads the answer of the Prometheus HTTP API's
// /api/v1/alerts endpoint, which the platform's Thanos querier serves for the
// whole cluster, and which `oc adm inspect-alerts` saves. Decoding it is pure:
// bytes in, alerts or a clear error out (this file). source.go asks the
// endpoint over HTTP, for the controllers that read the cluster's alerts.
package alerts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
)

// MaxResponseBytes bounds what is read of an answer. A cluster with
// thousands of firing alerts answers in a few megabytes; anything larger is
// not an answer this operator can use, and must not exhaust its memory.
const MaxResponseBytes = 32 << 20

// States of an alert.
const (
	StateFiring  = "firing"
	StatePending = "pending"
)

// Alert is one alert instance: one set of labels of one alerting rule.
type Alert struct {
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
	// State is firing or pending (its condition holds, but not for long
	// enough yet).
	State string `json:"state"`
	// ActiveAt is when the alert's condition began to hold; zero if the
	// answer does not say.
	ActiveAt time.Time `json:"activeAt"`
	Value    string    `json:"value"`
}

// Name is the alert's alertname label, empty if it has none.
func (a *Alert) Name() string { return a.Labels["alertname"] }

// Description quotes what the alert says of itself, as
// `oc adm upgrade status` does: its description, its message (an older
// annotation), or both.
func (a *Alert) Description() string {
	description, message := a.Annotations["description"], a.Annotations["message"]
	switch {
	case description != "" && message != "":
		return "The alert description is: " + description + " | " + message
	case description != "":
		return "The alert description is: " + description
	case message != "":
		return "The alert description is: " + message
	default:
		return "The alert has no description."
	}
}

// Identity is the alert instance's label set, as Prometheus identifies it,
// in a canonical text form: {"name"="value", ...}, sorted by name. Names
// and values are quoted, since values may hold any character, and names
// too since Prometheus 3: two label sets never share an identity.
func (a *Alert) Identity() string {
	var b strings.Builder
	b.WriteString("{")
	for i, k := range slices.Sorted(maps.Keys(a.Labels)) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q=%q", k, a.Labels[k])
	}
	b.WriteString("}")
	return b.String()
}

// response is the envelope of every Prometheus HTTP API answer.
type response struct {
	Status    string `json:"status"`
	ErrorType string `json:"errorType"`
	Error     string `json:"error"`
	Data      *struct {
		Alerts []Alert `json:"alerts"`
	} `json:"data"`
}

// Decode reads an /api/v1/alerts answer. An answer that is not JSON, is
// larger than MaxResponseBytes, reports an error, or carries no alert list
// is an error: an answer without alerts is not the same as no alert firing.
func Decode(r io.Reader) ([]Alert, error) {
	content, err := io.ReadAll(io.LimitReader(r, MaxResponseBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the alerts: %w", err)
	}
	if len(content) > MaxResponseBytes {
		return nil, fmt.Errorf("the alerts answer is larger than %d bytes", MaxResponseBytes)
	}
	var resp response
	if err := json.NewDecoder(bytes.NewReader(content)).Decode(&resp); err != nil {
		return nil, fmt.Errorf("the alerts answer is not the Prometheus API's JSON: %w", err)
	}
	switch {
	case resp.Status == "error":
		return nil, fmt.Errorf("the alerts answer is an error: %s: %s", resp.ErrorType, resp.Error)
	case resp.Status != "success":
		return nil, fmt.Errorf("the alerts answer has status %q, want success", resp.Status)
	case resp.Data == nil || resp.Data.Alerts == nil:
		return nil, errors.New("the alerts answer has no data.alerts list")
	}
	return resp.Data.Alerts, nil
}
