package v1alpha1

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLevels(t *testing.T) {
	type impact struct {
		Level InsightImpactLevel
		OK    bool
	}
	tests := []struct {
		name       string
		level      UpdateInsightLevel
		health     InsightImpactLevel
		rank       int
		healthRank int
		asHealth   impact
		asInformer UpdateInsightLevel
	}{
		{"critical", CriticalInsightLevel, CriticalImpactLevel, 0, 0, impact{CriticalImpactLevel, true}, CriticalInsightLevel},
		{"error", ErrorInsightLevel, ErrorImpactLevel, 1, 1, impact{ErrorImpactLevel, true}, ErrorInsightLevel},
		{"warning", WarningInsightLevel, WarningImpactLevel, 2, 2, impact{WarningImpactLevel, true}, WarningInsightLevel},
		{"info", InfoInsightLevel, InfoImpactLevel, 3, 3, impact{InfoImpactLevel, true}, InfoInsightLevel},
		{"status and Unknown: progress has no health, an unknown health is info", StatusInsightLevel, UnknownImpactLevel, 4, 4, impact{"", false}, InfoInsightLevel},
		{"levels of a later version come last and map to nothing", "fatal", "Fatal", 5, 5, impact{"", false}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			level, ok := ImpactLevel(tt.level)
			got := []any{UpdateInsightLevelRank(tt.level), ImpactLevelRank(tt.health), impact{level, ok}, InformerLevel(tt.health)}
			want := []any{tt.rank, tt.healthRank, tt.asHealth, tt.asInformer}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("rank, health rank, as health, as informer (-want +got):\n%s", diff)
			}
		})
	}
}
