package client

import "context"

// Limit bounds how many requests the clients that share it have in flight
// at once: informers that answer slowly, each within its budget, hold at
// most that many connections and goroutines of the caller's between them.
// A client waiting after Wait holds no request.
type Limit struct {
	slots chan struct{}
}

// NewLimit returns a limit of n requests in flight.
func NewLimit(n int) *Limit {
	return &Limit{slots: make(chan struct{}, n)}
}

// acquire waits for a free slot, or for ctx to end. A nil limit is no
// limit.
func (l *Limit) acquire(ctx context.Context) error {
	if l == nil {
		return nil
	}
	select {
	case l.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *Limit) release() {
	if l != nil {
		<-l.slots
	}
}
