// Package healthinsights reconciles a set of UpdateHealthInsights that one
// manager owns with the set it currently wants: creating, updating and
// deleting objects so that the cluster holds exactly the desired insights.
package healthinsights

import (
	"context"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/typed/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/health"
)

// ManagerLabel names the manager of a health insight; each manager
// reconciles only its own.
const ManagerLabel = "insight-manager"

// ownerIndex finds a manager's health insights by owner. A manager such as
// the node controller owns thousands of insights, a few per owner: a sync
// must not scan them all.
const ownerIndex = "managerAndOwner"

// Indexers are the indexes a Syncer needs on the health insight informer.
func Indexers() cache.Indexers {
	return cache.Indexers{ownerIndex: func(obj any) ([]string, error) {
		o, err := meta.Accessor(obj)
		if err != nil {
			return nil, err
		}
		var keys []string
		for _, ref := range o.GetOwnerReferences() {
			keys = append(keys, ownerKey(o.GetLabels()[ManagerLabel], ref.Kind, ref.Name))
		}
		return keys, nil
	}}
}

// AddIndexers adds the Syncer's indexes to the health insight informer,
// once however many controllers share it. The informer must not have
// started.
func AddIndexers(informer cache.SharedIndexInformer) error {
	if _, ok := informer.GetIndexer().GetIndexers()[ownerIndex]; ok {
		return nil
	}
	return informer.AddIndexers(Indexers())
}

func ownerKey(manager, kind, name string) string {
	return manager + "/" + kind + "/" + name
}

// Syncer reconciles the health insights of one manager.
type Syncer struct {
	manager string
	client  insightsclient.UpdateHealthInsightsGetter
	writer  *insightwrite.Writer[*insightsv1alpha1.UpdateHealthInsight, insightsv1alpha1.UpdateHealthInsightStatus]
	indexer cache.Indexer
	clock   clock.PassiveClock
}

// NewSyncer returns a Syncer for the insights labelled insight-manager=manager,
// found in an indexer that has the Syncer's Indexers.
func NewSyncer(manager string, client insightsclient.UpdateHealthInsightsGetter, indexer cache.Indexer, clock clock.PassiveClock) *Syncer {
	return &Syncer{manager: manager, client: client, writer: insightwrite.UpdateHealthInsights(client), indexer: indexer, clock: clock}
}

// Sync makes the manager's insights owned by owner exactly the desired ones.
// It returns the errors of every write that failed; the others are done.
func (s *Syncer) Sync(ctx context.Context, owner metav1.OwnerReference, desired []health.Insight) error {
	existing, err := s.owned(owner)
	if err != nil {
		return err
	}

	var errs []error
	for i := range desired {
		d := &desired[i]
		current := existing[d.Name]
		delete(existing, d.Name)
		errs = append(errs, s.write(ctx, owner, current, d))
	}
	for _, insight := range existing {
		errs = append(errs, s.writer.Delete(ctx, insight, nil))
	}
	return utilerrors.NewAggregate(errs)
}

// owned returns the manager's insights that belong to owner, by name.
func (s *Syncer) owned(owner metav1.OwnerReference) (map[string]*insightsv1alpha1.UpdateHealthInsight, error) {
	objects, err := s.indexer.ByIndex(ownerIndex, ownerKey(s.manager, owner.Kind, owner.Name))
	if err != nil {
		return nil, err
	}
	owned := make(map[string]*insightsv1alpha1.UpdateHealthInsight, len(objects))
	for _, obj := range objects {
		if insight, ok := obj.(*insightsv1alpha1.UpdateHealthInsight); ok {
			owned[insight.Name] = insight
		}
	}
	return owned, nil
}

// write writes a desired insight, creating it when current is nil. A
// problem whose start the cluster does not record keeps the start it was
// first reported with, or starts now: new, or its first status write failed;
// unless it is undated, whose start stays empty.
func (s *Syncer) write(ctx context.Context, owner metav1.OwnerReference, current *insightsv1alpha1.UpdateHealthInsight, d *health.Insight) error {
	status := d.Status
	if current != nil {
		adopted, err := s.adopt(ctx, owner, current)
		if err != nil {
			return err
		}
		current = adopted
		if status.StartedAt.IsZero() && !d.Undated {
			status.StartedAt = current.Status.StartedAt
		}
	}
	if status.StartedAt.IsZero() && !d.Undated {
		status.StartedAt = metav1.NewTime(s.clock.Now())
	}
	meta := metav1.ObjectMeta{
		Name:            d.Name,
		Labels:          map[string]string{ManagerLabel: s.manager},
		OwnerReferences: []metav1.OwnerReference{owner},
	}
	_, _, err := s.writer.WriteStatus(ctx, meta, current, status)
	return err
}

// adopt makes owner the owner of current. An owner deleted by someone else
// and recreated has a new UID; the garbage collector would delete the
// insight with the old owner.
func (s *Syncer) adopt(ctx context.Context, owner metav1.OwnerReference, current *insightsv1alpha1.UpdateHealthInsight) (*insightsv1alpha1.UpdateHealthInsight, error) {
	if slices.ContainsFunc(current.OwnerReferences, func(ref metav1.OwnerReference) bool { return ref.UID == owner.UID }) {
		return current, nil
	}
	adopted := current.DeepCopy()
	adopted.OwnerReferences = []metav1.OwnerReference{owner}
	written, err := s.client.UpdateHealthInsights().Update(ctx, adopted, metav1.UpdateOptions{})
	if err != nil {
		return nil, fmt.Errorf("making the recreated %s %s the owner of UpdateHealthInsight %s: %w", owner.Kind, owner.Name, current.Name, err)
	}
	return written, nil
}
