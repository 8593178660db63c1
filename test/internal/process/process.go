// Package process runs `update-insights-operator start` as a process of its
// own, against a kubeconfig, as it runs in a cluster. The integration tests
// and run-local share it.
package process

import (
	"fmt"
	"io"
	"net"
	"os/exec"
	"syscall"
	"time"

	"github.com/update-insights/update-insights-operator/pkg/names"
)

// Operator is a running operator process.
type Operator struct {
	cmd    *exec.Cmd
	exited chan struct{}
	listen string
}

// Start runs `binary start` against kubeconfig, serving its metrics on a free
// loopback port and writing its output to out, with extra flags appended.
func Start(binary, kubeconfig string, out io.Writer, extra ...string) (*Operator, error) {
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	listen := fmt.Sprintf("127.0.0.1:%d", port)
	args := append([]string{"start",
		"--kubeconfig", kubeconfig,
		"--namespace", names.OwnNamespace,
		"--listen", listen,
	}, extra...)
	o, err := StartCommand(out, binary, args...)
	if err != nil {
		return nil, err
	}
	o.listen = listen
	return o, nil
}

// StartCommand runs another program, such as a controller the operator is
// compared with, as Start runs the operator: writing its output to out, and
// stopped with Stop. Its Address is empty.
func StartCommand(out io.Writer, binary string, args ...string) (*Operator, error) {
	o := &Operator{cmd: exec.Command(binary, args...), exited: make(chan struct{})}
	o.cmd.Stdout, o.cmd.Stderr = out, out
	// A process group of its own: a Ctrl-C meant for the caller does not
	// reach it, and the caller stops it in order, as the kubelet would.
	o.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := o.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", binary, err)
	}
	go func() {
		_ = o.cmd.Wait()
		close(o.exited)
	}()
	return o, nil
}

// Address is where the operator serves its metrics and health checks, over
// HTTPS with a self-signed certificate.
func (o *Operator) Address() string { return o.listen }

// Pid is the process's ID.
func (o *Operator) Pid() int { return o.cmd.Process.Pid }

// Running says whether the process has not exited yet.
func (o *Operator) Running() bool {
	select {
	case <-o.exited:
		return false
	default:
		return true
	}
}

// Kill ends the process as a crash would: SIGKILL, with no chance to release
// its lease or finish a write.
func (o *Operator) Kill() {
	if o.Running() {
		_ = o.cmd.Process.Kill()
	}
	<-o.exited
}

// Stop sends SIGTERM and waits for the process to exit, killing it after
// timeout. It returns the exit code, or an error if it had to be killed.
func (o *Operator) Stop(timeout time.Duration) (int, error) {
	if o.Running() {
		_ = o.cmd.Process.Signal(syscall.SIGTERM)
	}
	select {
	case <-o.exited:
		return o.cmd.ProcessState.ExitCode(), nil
	case <-time.After(timeout):
		_ = o.cmd.Process.Kill()
		<-o.exited
		return o.cmd.ProcessState.ExitCode(), fmt.Errorf("the operator did not exit within %s of SIGTERM and was killed", timeout)
	}
}

// FreePort returns a loopback port nothing listens on.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
