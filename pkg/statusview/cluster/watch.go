package cluster

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	configclient "github.com/openshift/client-go/config/clientset/versioned"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	informers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/output"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

const (
	// settle lets a burst of changes (an operator writes several insights
	// at once) end in one redraw.
	settle = 200 * time.Millisecond
	// refresh redraws without a change, from the cache, so that the
	// durations on screen stay current.
	refresh = 30 * time.Second
	// clearScreen moves the cursor home and clears the terminal.
	clearScreen = "\033[H\033[2J"
	barWidth    = 20
)

// Watch redraws the status on out whenever the insights change, until ctx
// ends. A cluster that does not serve the ClusterVersion insights is an
// error; one that serves them but has none yet says so on screen and waits.
func Watch(ctx context.Context, c Clients, out io.Writer, clock clock.PassiveClock, details statusview.Details) error {
	if _, err := c.Insights.InsightsV1alpha1().ClusterVersionProgressInsights().List(ctx, metav1.ListOptions{Limit: 1}); apierrors.IsNotFound(err) {
		return statusview.ErrNoClusterVersion
	} else if err != nil {
		return listError("ClusterVersionProgressInsights", err)
	}
	factory := informers.NewSharedInformerFactory(c.Insights, 0)
	insights := factory.Insights().V1alpha1()
	cvs, cos := insights.ClusterVersionProgressInsights(), insights.ClusterOperatorProgressInsights()
	pools, nodes, health := insights.MachineConfigPoolProgressInsights(), insights.NodeProgressInsights(), insights.UpdateHealthInsights()

	changed := make(chan struct{}, 1)
	notify := func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	}
	handler := cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { notify() },
		UpdateFunc: func(any, any) { notify() },
		DeleteFunc: func(any) { notify() },
	}
	watched := []cache.SharedIndexInformer{cvs.Informer(), cos.Informer(), pools.Informer(), nodes.Informer(), health.Informer()}
	// An operator that does not aggregate informers serves no UpdateStatus:
	// a watch of it would never sync.
	var updateStatuses insightslisters.UpdateStatusLister
	if _, err := c.Insights.InsightsV1alpha1().UpdateStatuses().List(ctx, metav1.ListOptions{Limit: 1}); err == nil {
		watched = append(watched, insights.UpdateStatuses().Informer())
		updateStatuses = insights.UpdateStatuses().Lister()
	}
	operatorFactory, err := ownClusterOperatorInformers(ctx, c.Config)
	if err != nil {
		return err
	}
	var operators configlisters.ClusterOperatorLister
	if operatorFactory != nil {
		watched = append(watched, operatorFactory.Config().V1().ClusterOperators().Informer())
		operators = operatorFactory.Config().V1().ClusterOperators().Lister()
	}
	for _, informer := range watched {
		if _, err := informer.AddEventHandler(handler); err != nil {
			return err
		}
	}
	factories := []interface {
		Start(<-chan struct{})
		Shutdown()
	}{factory}
	if operatorFactory != nil {
		factories = append(factories, operatorFactory)
	}
	for _, f := range factories {
		f.Start(ctx.Done())
		defer f.Shutdown()
	}
	if !cache.WaitForCacheSync(ctx.Done(), hasSynced(watched)...) {
		// Only an interruption stops the caches from filling.
		return nil
	}

	ticker := time.NewTicker(refresh)
	defer ticker.Stop()
	for {
		in := &statusview.Insights{}
		// Listing a synced cache with every label cannot fail.
		in.ClusterVersions, _ = cvs.Lister().List(labels.Everything())
		in.ClusterOperators, _ = cos.Lister().List(labels.Everything())
		in.MachineConfigPools, _ = pools.Lister().List(labels.Everything())
		in.Nodes, _ = nodes.Lister().List(labels.Everything())
		in.Health, _ = health.Lister().List(labels.Everything())
		if updateStatuses != nil {
			// Not found is no informer to tell of.
			in.UpdateStatus, _ = updateStatuses.Get(insightsv1alpha1.UpdateStatusName)
		}
		if operators != nil {
			// Not found is no ClusterOperator to tell of.
			in.Operator, _ = operators.Get(names.OwnClusterOperator)
		}
		// Read at each redraw, at least every refresh: a Lease renewed
		// every few seconds would redraw as often through a watch.
		in.Lease = ReadLease(ctx, c.Kube)
		if _, err := out.Write(screen(in, clock.Now(), details)); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-ticker.C:
		case <-changed:
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(settle):
			}
			// The redraw shows what changed while settling too.
			select {
			case <-changed:
			default:
			}
		}
	}
}

// screen is one redraw: the control plane's completion as a bar, then the
// status as the text shows it.
func screen(in *statusview.Insights, now time.Time, details statusview.Details) []byte {
	var b bytes.Buffer
	b.WriteString(clearScreen)
	s, err := statusview.Build(in, now)
	if err != nil {
		fmt.Fprintf(&b, "%v\n", err)
		return b.Bytes()
	}
	_ = statusview.WriteTextWithHead(&b, s, details, progressBar(s.ControlPlane.Completion.Percent)+"\n\n")
	return b.Bytes()
}

// progressBar draws a completion, e.g. [##########----------] 50%.
func progressBar(percent int32) string {
	percent = min(max(percent, 0), 100)
	filled := int(percent) * barWidth / 100
	return fmt.Sprintf("[%s%s] %d%%", strings.Repeat("#", filled), strings.Repeat("-", barWidth-filled), percent)
}

// ownClusterOperatorInformers are informers of the operator's ClusterOperator
// alone, or nil when the user may not read it: the status is then told
// without it, as when listing once.
func ownClusterOperatorInformers(ctx context.Context, client configclient.Interface) (configinformers.SharedInformerFactory, error) {
	_, err := client.ConfigV1().ClusterOperators().List(ctx, metav1.ListOptions{FieldSelector: onlyOwnClusterOperator(), Limit: 1})
	if apierrors.IsForbidden(err) || apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, output.OneLine(fmt.Errorf("listing ClusterOperators: %w", err))
	}
	return configinformers.NewSharedInformerFactoryWithOptions(client, 0, configinformers.WithTweakListOptions(func(o *metav1.ListOptions) {
		o.FieldSelector = onlyOwnClusterOperator()
	})), nil
}

func onlyOwnClusterOperator() string {
	return fields.OneTermEqualSelector("metadata.name", names.OwnClusterOperator).String()
}

func hasSynced(informers []cache.SharedIndexInformer) []cache.InformerSynced {
	synced := make([]cache.InformerSynced, 0, len(informers))
	for _, i := range informers {
		synced = append(synced, i.HasSynced)
	}
	return synced
}
