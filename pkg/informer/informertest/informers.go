package informertest

import (
	"context"

	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

// StatusFunc is a status informer of a function.
type StatusFunc func(context.Context, *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error)

func (f StatusFunc) StatusInsights(ctx context.Context, req *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error) {
	return f(ctx, req)
}

// PlanFunc is a plan informer of a function.
type PlanFunc func(context.Context, *protocol.UpdatePlanInsightsRequest) (*protocol.UpdatePlanInsightsResponse, error)

func (f PlanFunc) PlanInsights(ctx context.Context, req *protocol.UpdatePlanInsightsRequest) (*protocol.UpdatePlanInsightsResponse, error) {
	return f(ctx, req)
}

// StatusAndPlan is an informer of both calls.
type StatusAndPlan struct {
	StatusFunc
	PlanFunc
}
