package integration

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"
	certutil "k8s.io/client-go/util/cert"

	"github.com/update-insights/update-insights-operator/pkg/consoleplugin"
	"github.com/update-insights/update-insights-operator/pkg/consoleplugin/bundle"
)

// The console plugin's server, as its ServiceAccount with the payload's
// RBAC, reads the APIServer's TLS security profile from the API server and
// follows it: a TLS 1.2 client is refused under Modern, and served once an
// administrator sets Intermediate, without a restart; and the API server
// lets the plugin's account do nothing else with APIServers.
func TestTheConsolePluginServerFollowsTheAPIServersTLSProfile(t *testing.T) {
	ctx := context.Background()
	for _, m := range manifestObjects(t, "../../manifests/0000_50_update-insights-operator_12_console-plugin-clusterrole.yaml") {
		if _, err := m.resource.Create(ctx, m.obj, metav1.CreateOptions{}); err != nil {
			t.Fatalf("%s: %v", filepath.Base(m.file), err)
		}
		t.Cleanup(func() {
			if err := m.resource.Delete(context.Background(), m.obj.GetName(), metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("deleting %s: %v", m.obj.GetName(), err)
			}
		})
	}
	apiServer, err := configClient.ConfigV1().APIServers().Create(ctx, &configv1.APIServer{
		ObjectMeta: metav1.ObjectMeta{Name: consoleplugin.APIServerName},
		Spec:       configv1.APIServerSpec{TLSSecurityProfile: &configv1.TLSSecurityProfile{Type: configv1.TLSProfileModernType, Modern: &configv1.ModernTLSProfile{}}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := configClient.ConfigV1().APIServers().Delete(context.Background(), apiServer.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting the APIServer: %v", err)
		}
	})

	config := rest.CopyConfig(testEnv.Config)
	config.Impersonate = rest.ImpersonationConfig{
		UserName: "system:serviceaccount:" + operatorNamespace + ":update-insights-console-plugin",
		Groups:   []string{"system:serviceaccounts", "system:serviceaccounts:" + operatorNamespace, "system:authenticated"},
	}
	plugin, err := configclient.NewForConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plugin.ConfigV1().APIServers().Update(ctx, apiServer, metav1.UpdateOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("the plugin's account updating the APIServer: %v, want Forbidden", err)
	}

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	followCtx, stopWaiting := context.WithTimeout(runCtx, eventually)
	defer stopWaiting()
	profile, err := consoleplugin.FollowAPIServerProfile(followCtx, plugin)
	if err != nil {
		t.Fatalf("the plugin's account following the APIServer: %v", err)
	}
	certPEM, keyPEM, err := certutil.GenerateSelfSignedCertKey("update-insights-console-plugin.openshift-update-insights.svc", []net.IP{net.ParseIP("127.0.0.1")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(certPEM)
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tlsConfig := consoleplugin.TLSConfig(func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return &pair, nil }, profile.Current)
	go func() { _ = consoleplugin.Serve(runCtx, listener, bundle.FS(), tlsConfig) }()
	served := func(maxVersion uint16) error {
		client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true, TLSClientConfig: &tls.Config{RootCAs: pool, MaxVersion: maxVersion}}, Timeout: time.Minute}
		resp, err := client.Get("https://" + listener.Addr().String() + "/")
		if err == nil {
			_ = resp.Body.Close()
		}
		return err
	}

	if err := served(tls.VersionTLS13); err != nil {
		t.Errorf("under Modern, a TLS 1.3 client was refused: %v", err)
	}
	if err := served(tls.VersionTLS12); err == nil {
		t.Errorf("under Modern, a TLS 1.2 client was served")
	}

	apiServer, err = configClient.ConfigV1().APIServers().Get(ctx, apiServer.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	apiServer.Spec.TLSSecurityProfile = &configv1.TLSSecurityProfile{Type: configv1.TLSProfileIntermediateType, Intermediate: &configv1.IntermediateTLSProfile{}}
	if _, err := configClient.ConfigV1().APIServers().Update(ctx, apiServer, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, eventually, true, func(context.Context) (bool, error) {
		return served(tls.VersionTLS12) == nil, nil
	}); err != nil {
		t.Errorf("a TLS 1.2 client was not served once the profile was Intermediate: %v", err)
	}
}
