// Package healthinsights reconciles a set of UpdateHealthInsights that one
// manager owns with the set it currently wants: creating, updating and
// deleting objects so that the cluster holds exactly the desired insights.
package healthinsights

import (
	"context"
	"fmt"
	"slices"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
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

// OwnerReference makes an insight the owner of health insights, so that
// garbage collection removes them with it. It does not block the owner's
// deletion: that would need permission on the owner's finalizers, which
// OpenShift's OwnerReferencesPermissionEnforcement checks, for nothing this
// operator needs.
func OwnerReference(kind, name string, uid types.UID) metav1.OwnerReference {
	return metav1.OwnerReference{
		APIVersion: insightsv1alpha1.SchemeGroupVersion.String(),
		Kind:       kind,
		Name:       name,
		UID:        uid,
		Controller: ptr.To(true),
	}
}

// Syncer reconciles the health insights of one manager.
type Syncer struct {
	manager string
	client  insightsclient.UpdateHealthInsightsGetter
	indexer cache.Indexer
	clock   clock.PassiveClock
}

// NewSyncer returns a Syncer for the insights labelled insight-manager=manager,
// found in an indexer that has the Syncer's Indexers.
func NewSyncer(manager string, client insightsclient.UpdateHealthInsightsGetter, indexer cache.Indexer, clock clock.PassiveClock) *Syncer {
	return &Syncer{manager: manager, client: client, indexer: indexer, clock: clock}
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
		current, ok := existing[d.Name]
		delete(existing, d.Name)
		if ok {
			errs = append(errs, s.update(ctx, owner, current, d))
		} else {
			errs = append(errs, s.create(ctx, owner, d))
		}
	}
	for name := range existing {
		if err := s.client.UpdateHealthInsights().Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("deleting health insight %s: %w", name, err))
			continue
		}
		klog.V(2).InfoS("Deleted health insight", "name", name, "manager", s.manager)
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

func (s *Syncer) create(ctx context.Context, owner metav1.OwnerReference, d *health.Insight) error {
	insight := &insightsv1alpha1.UpdateHealthInsight{
		ObjectMeta: metav1.ObjectMeta{
			Name:            d.Name,
			Labels:          map[string]string{ManagerLabel: s.manager},
			OwnerReferences: []metav1.OwnerReference{owner},
		},
	}
	created, err := s.client.UpdateHealthInsights().Create(ctx, insight, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating health insight %s: %w", d.Name, err)
	}
	// The status subresource ignores status on create: write it separately.
	created.Status = d.Status
	if created.Status.StartedAt.IsZero() {
		created.Status.StartedAt = metav1.NewTime(s.clock.Now())
	}
	if _, err := s.client.UpdateHealthInsights().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("writing the status of health insight %s: %w", d.Name, err)
	}
	klog.V(2).InfoS("Created health insight", "name", d.Name, "manager", s.manager, "summary", d.Status.Impact.Summary)
	return nil
}

func (s *Syncer) update(ctx context.Context, owner metav1.OwnerReference, current *insightsv1alpha1.UpdateHealthInsight, d *health.Insight) error {
	// An owner deleted by someone else and recreated has a new UID; the
	// garbage collector would delete the insight with the old owner.
	if !slices.ContainsFunc(current.OwnerReferences, func(ref metav1.OwnerReference) bool { return ref.UID == owner.UID }) {
		adopted := current.DeepCopy()
		adopted.OwnerReferences = []metav1.OwnerReference{owner}
		written, err := s.client.UpdateHealthInsights().Update(ctx, adopted, metav1.UpdateOptions{})
		if err != nil {
			return fmt.Errorf("making the recreated %s %s the owner of health insight %s: %w", owner.Kind, owner.Name, d.Name, err)
		}
		current = written
	}
	status := d.Status
	if status.StartedAt.IsZero() {
		status.StartedAt = current.Status.StartedAt
	}
	// An insight whose first status write failed has no start yet.
	if status.StartedAt.IsZero() {
		status.StartedAt = metav1.NewTime(s.clock.Now())
	}
	if apiequality.Semantic.DeepEqual(current.Status, status) {
		return nil
	}
	updated := current.DeepCopy()
	updated.Status = status
	if _, err := s.client.UpdateHealthInsights().UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("writing the status of health insight %s: %w", d.Name, err)
	}
	klog.V(2).InfoS("Updated health insight", "name", d.Name, "manager", s.manager)
	return nil
}
