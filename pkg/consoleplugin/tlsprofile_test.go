package consoleplugin

import (
	"crypto/tls"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
)

// intermediate is the Intermediate profile's TLS 1.2 ciphers in Go's
// numbers, in the profile's order (openshift/api config/v1
// types_tlssecurityprofile.go); its TLS 1.3 ones come first.
var intermediate = TLSProfile{MinVersion: tls.VersionTLS12, CipherSuites: []uint16{
	tls.TLS_AES_128_GCM_SHA256, tls.TLS_AES_256_GCM_SHA384, tls.TLS_CHACHA20_POLY1305_SHA256,
	tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
	tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
	tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
}}

func TestTLSProfileOf(t *testing.T) {
	custom := func(spec configv1.TLSProfileSpec) *configv1.TLSSecurityProfile {
		return &configv1.TLSSecurityProfile{Type: configv1.TLSProfileCustomType, Custom: &configv1.CustomTLSProfile{TLSProfileSpec: spec}}
	}
	for _, tc := range []struct {
		name    string
		profile *configv1.TLSSecurityProfile
		want    TLSProfile
	}{
		{name: "none set is Intermediate", want: intermediate},
		{name: "Intermediate", profile: &configv1.TLSSecurityProfile{Type: configv1.TLSProfileIntermediateType, Intermediate: &configv1.IntermediateTLSProfile{}}, want: intermediate},
		{name: "a type left empty is Intermediate", profile: &configv1.TLSSecurityProfile{}, want: intermediate},
		{name: "Modern: TLS 1.3 only", profile: &configv1.TLSSecurityProfile{Type: configv1.TLSProfileModernType, Modern: &configv1.ModernTLSProfile{}},
			want: TLSProfile{MinVersion: tls.VersionTLS13, CipherSuites: []uint16{tls.TLS_AES_128_GCM_SHA256, tls.TLS_AES_256_GCM_SHA384, tls.TLS_CHACHA20_POLY1305_SHA256}}},
		{name: "Custom, OpenSSL names mapped and an unknown one left out", profile: custom(configv1.TLSProfileSpec{
			Ciphers:       []string{"ECDHE-RSA-AES256-GCM-SHA384", "NOT-A-CIPHER", "ECDHE-ECDSA-AES128-GCM-SHA256"},
			MinTLSVersion: configv1.VersionTLS12,
		}), want: TLSProfile{MinVersion: tls.VersionTLS12, CipherSuites: []uint16{tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256}}},
		{name: "Custom without its spec is Intermediate", profile: &configv1.TLSSecurityProfile{Type: configv1.TLSProfileCustomType}, want: intermediate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := TLSProfileOf(tc.profile)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("profile (-want +got):\n%s", diff)
			}
		})
	}
}

// The Old profile accepts TLS 1.0 and its CBC ciphers, which the
// Intermediate one does not.
func TestTLSProfileOfOld(t *testing.T) {
	got, err := TLSProfileOf(&configv1.TLSSecurityProfile{Type: configv1.TLSProfileOldType})
	if err != nil {
		t.Fatal(err)
	}
	if got.MinVersion != tls.VersionTLS10 {
		t.Errorf("MinVersion %s, want TLS 1.0", tls.VersionName(got.MinVersion))
	}
	for _, suite := range []uint16{tls.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, tls.TLS_RSA_WITH_AES_128_GCM_SHA256} {
		if !slices.Contains(got.CipherSuites, suite) {
			t.Errorf("ciphers %s lack %s", got, tls.CipherSuiteName(suite))
		}
	}
}

// A Custom profile none of whose ciphers Go knows is served with
// OpenShift's defaults, as library-go serves it, never with no cipher.
func TestTLSProfileOfCustomWithoutAKnownCipher(t *testing.T) {
	got, err := TLSProfileOf(&configv1.TLSSecurityProfile{Type: configv1.TLSProfileCustomType, Custom: &configv1.CustomTLSProfile{
		TLSProfileSpec: configv1.TLSProfileSpec{Ciphers: []string{"NOT-A-CIPHER"}, MinTLSVersion: configv1.VersionTLS12},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.CipherSuites) == 0 {
		t.Errorf("no cipher: %s", got)
	}
}
