package v1alpha1

// The API's bounds, as constants, for the code that cuts or skips what the
// API server would refuse. Each equals the kubebuilder marker it names;
// TestLimitsEqualTheCRDs holds them to the generated CRDs, so that changing a
// marker without its constant (or the other way round) fails a test.
const (
	// InsightUIDMaxLength is UpdateInsight.UID's MaxLength.
	InsightUIDMaxLength = 256
	// InsightSummaryMaxLength is UpdateInsightImpact.Summary's MaxLength.
	InsightSummaryMaxLength = 256
	// InsightDescriptionMaxLength is UpdateInsightImpact.Description's
	// MaxLength.
	InsightDescriptionMaxLength = 4096
	// RemediationReferenceMaxLength is UpdateInsightRemediation.Reference's
	// MaxLength.
	RemediationReferenceMaxLength = 2048
	// InsightResourcesMaxItems is UpdateInsightScope.Resources' MaxItems.
	InsightResourcesMaxItems = 32
	// InsightWorkerPoolMaxItems is UpdateInsightScope.WorkerPool's MaxItems.
	InsightWorkerPoolMaxItems = 16
	// ResourceKindMaxLength is InsightResource.Kind's MaxLength.
	ResourceKindMaxLength = 63
	// ResourceNamespaceMaxLength is the MaxLength of InsightResource's and
	// ResourceRef's Namespace.
	ResourceNamespaceMaxLength = 63
	// ResourceNameMaxLength is the MaxLength of InsightResource's and
	// ResourceRef's Name (and Group).
	ResourceNameMaxLength = 253
	// InformersMaxItems is the MaxItems of ControlPlaneUpdateStatus.Informers
	// and WorkerPoolUpdateStatus.Informers.
	InformersMaxItems = 32
	// InformerInsightsMaxItems is InformerInsights.Insights' MaxItems.
	InformerInsightsMaxItems = 1024
	// VersionMaxLength is Version.Version's MaxLength.
	VersionMaxLength = 256
	// ProgressingReasonMaxLength is
	// ClusterOperatorProgressInsightStatus.ProgressingReason's MaxLength,
	// a condition reason's.
	ProgressingReasonMaxLength = 1024
	// HealthDescriptionMaxLength is InsightImpact.Description's MaxLength,
	// that of an UpdateHealthInsight: a Kubernetes condition's message
	// (32768, metav1.Condition's bound), so that a health insight quotes the
	// ClusterOperator or ClusterVersion condition behind it whole. One
	// insight is one object, far below etcd's 1.5 MiB, and no CEL rule reads
	// the description.
	HealthDescriptionMaxLength = 32768
	// NodeMessageMaxLength is NodeProgressInsightStatus.Message's MaxLength:
	// room for the machine-config daemon's longest reasons, which
	// `oc adm upgrade status` prints whole (a failed drain names its pods).
	NodeMessageMaxLength = 4096
	// PlanIdentityMaxLength is the MaxLength of UpdatePlanInsight.Identity
	// and AcceptedInsight.UID.
	PlanIdentityMaxLength = 1024
	// ImageBuildImageMaxLength is PoolImageBuild.Image's MaxLength: that of
	// the machine-config API's ImageDigestFormat, a MachineOSConfig's image
	// pull spec.
	ImageBuildImageMaxLength = 447
	// ImageBuildMessageMaxLength is PoolImageBuild.Message's MaxLength.
	ImageBuildMessageMaxLength = 1024
)
