package main

import (
	"os"
	"time"

	"github.com/update-insights/update-insights-operator/test/internal/process"
)

// operatorProcess is the operator, logging to a file.
type operatorProcess struct {
	*process.Operator
	log *os.File
}

// startOperator runs the operator, asking the UpdateInformers for their
// insights every informerInterval.
func startOperator(binary, kubeconfig, logPath string, informerInterval time.Duration) (*operatorProcess, error) {
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	// No Prometheus runs beside the local API server: no alerts to read.
	op, err := process.Start(binary, kubeconfig, log, "-v=2", "--alerts-url=", "--informer-interval="+informerInterval.String())
	if err != nil {
		log.Close()
		return nil, err
	}
	return &operatorProcess{Operator: op, log: log}, nil
}

func (p *operatorProcess) stop() {
	defer p.log.Close()
	if _, err := p.Stop(15 * time.Second); err != nil {
		say("%v", err)
	}
}
