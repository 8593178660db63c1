package upgrade

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/output"
)

// unknownAcceptRisks is how the API server's strict field validation names
// the field on a cluster whose ClusterVersion does not have it (before the
// ClusterUpdateAcceptRisks feature, or without its feature gate).
const unknownAcceptRisks = `unknown field "spec.desiredUpdate.acceptRisks"`

func riskNames(u configv1.Update) []string {
	var out []string
	for _, r := range u.AcceptRisks {
		out = append(out, r.Name)
	}
	return out
}

// writeDesiredUpdate sets the ClusterVersion's spec.desiredUpdate, with a
// merge patch as oc does, and returns what it wrote. The API server
// validates the patch strictly: a ClusterVersion without acceptRisks would
// otherwise drop the field without a word. When it refuses acceptRisks as
// unknown, the update is written without it, and errOut says so. With
// dryRun the API server checks the write and stores nothing.
func writeDesiredUpdate(ctx context.Context, client configclient.Interface, update configv1.Update, dryRun bool, errOut io.Writer) (configv1.Update, error) {
	options := metav1.PatchOptions{FieldValidation: metav1.FieldValidationStrict}
	if dryRun {
		options.DryRun = []string{metav1.DryRunAll}
	}
	err := patch(ctx, client, update, options)
	if err != nil && len(update.AcceptRisks) > 0 && (apierrors.IsInvalid(err) || apierrors.IsBadRequest(err)) && strings.Contains(err.Error(), unknownAcceptRisks) {
		fmt.Fprintf(errOut, "warning: this cluster's ClusterVersion has no spec.desiredUpdate.acceptRisks, so the risks accepted in the UpdatePlan (%s) are not recorded there\n",
			strings.Join(riskNames(update), ", "))
		update.AcceptRisks = nil
		err = patch(ctx, client, update, options)
	}
	if err != nil {
		return configv1.Update{}, output.OneLine(fmt.Errorf("setting ClusterVersion %s's desiredUpdate: %w", names.ClusterVersion, err))
	}
	return update, nil
}

func patch(ctx context.Context, client configclient.Interface, update configv1.Update, options metav1.PatchOptions) error {
	body, err := json.Marshal(map[string]any{"spec": map[string]any{"desiredUpdate": update}})
	if err != nil {
		return err
	}
	_, err = client.ConfigV1().ClusterVersions().Patch(ctx, names.ClusterVersion, types.MergePatchType, body, options)
	return err
}
