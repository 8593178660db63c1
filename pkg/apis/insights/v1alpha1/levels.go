package v1alpha1

// The two level vocabularies, in one place: how serious each level is, and
// how a health insight's level reads as an informer's and back.

// updateInsightLevels are the informers' levels, the most serious first.
var updateInsightLevels = []UpdateInsightLevel{CriticalInsightLevel, ErrorInsightLevel, WarningInsightLevel, InfoInsightLevel, StatusInsightLevel}

// impactLevels are the health insights' levels, the most serious first.
var impactLevels = []InsightImpactLevel{CriticalImpactLevel, ErrorImpactLevel, WarningImpactLevel, InfoImpactLevel, UnknownImpactLevel}

// UpdateInsightLevelRank orders informers' levels: 0 is the most serious,
// and a level unknown to this version comes after all known ones.
func UpdateInsightLevelRank(level UpdateInsightLevel) int {
	return rank(updateInsightLevels, level)
}

// ImpactLevelRank orders health insights' levels: 0 is the most serious,
// and a level unknown to this version comes after all known ones.
func ImpactLevelRank(level InsightImpactLevel) int {
	return rank(impactLevels, level)
}

func rank[L comparable](levels []L, level L) int {
	for i, l := range levels {
		if l == level {
			return i
		}
	}
	return len(levels)
}

// InformerLevel is a health insight's level as an informer's: Unknown reads
// as info; a level unknown to this version is "".
func InformerLevel(level InsightImpactLevel) UpdateInsightLevel {
	switch level {
	case CriticalImpactLevel:
		return CriticalInsightLevel
	case ErrorImpactLevel:
		return ErrorInsightLevel
	case WarningImpactLevel:
		return WarningInsightLevel
	case InfoImpactLevel, UnknownImpactLevel:
		return InfoInsightLevel
	}
	return ""
}

// ImpactLevel is an informer's level as a health insight's. A status
// level is progress, not a matter of health: it, and a level unknown to
// this version, have none.
func ImpactLevel(level UpdateInsightLevel) (InsightImpactLevel, bool) {
	switch level {
	case CriticalInsightLevel:
		return CriticalImpactLevel, true
	case ErrorInsightLevel:
		return ErrorImpactLevel, true
	case WarningInsightLevel:
		return WarningImpactLevel, true
	case InfoInsightLevel:
		return InfoImpactLevel, true
	}
	return "", false
}
