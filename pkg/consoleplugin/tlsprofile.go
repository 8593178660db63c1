package consoleplugin

import (
	"crypto/tls"
	"fmt"
	"slices"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/crypto"
)

// TLSProfile is what the server takes of a TLS security profile: the
// minimum version it accepts and, below TLS 1.3 (whose ciphers Go does not
// let a server choose), the cipher suites it offers.
type TLSProfile struct {
	MinVersion   uint16
	CipherSuites []uint16
}

// TLSProfileOf is the profile the cluster's APIServer sets for every
// server of the cluster (spec.tlsSecurityProfile), as library-go reads it
// for the operators that follow it (pkg/operator/configobserver/apiserver/
// observe_tlssecurityprofile.go, getSecurityProfileCiphers): no profile, or
// a Custom one without its spec, is the Intermediate profile; a predefined
// profile is openshift/api's configv1.TLSProfiles; the ciphers' OpenSSL
// names are mapped to Go's (crypto.OpenSSLToIANACipherSuites), and a name
// without one is left out, as library-go leaves it.
func TLSProfileOf(profile *configv1.TLSSecurityProfile) (TLSProfile, error) {
	profileType := crypto.DefaultTLSProfileType
	if profile != nil {
		profileType = profile.Type
	}
	var spec *configv1.TLSProfileSpec
	if profileType == configv1.TLSProfileCustomType {
		if profile.Custom != nil {
			spec = &profile.Custom.TLSProfileSpec
		}
	} else {
		spec = configv1.TLSProfiles[profileType]
	}
	if spec == nil {
		spec = configv1.TLSProfiles[crypto.DefaultTLSProfileType]
	}
	minVersion, err := crypto.TLSVersion(string(spec.MinTLSVersion))
	if err != nil {
		return TLSProfile{}, fmt.Errorf("the TLS security profile's minimum version: %w", err)
	}
	var suites []uint16
	for _, name := range crypto.OpenSSLToIANACipherSuites(spec.Ciphers) {
		suite, err := crypto.CipherSuite(name)
		if err != nil {
			return TLSProfile{}, fmt.Errorf("the TLS security profile's ciphers: %w", err)
		}
		suites = append(suites, suite)
	}
	if len(suites) == 0 {
		// As library-go serves a profile none of whose ciphers it knows
		// (crypto.CipherSuitesOrDie): with OpenShift's defaults.
		suites = crypto.DefaultCiphers()
	}
	return TLSProfile{MinVersion: minVersion, CipherSuites: suites}, nil
}

// Equal says whether two profiles configure the server alike.
func (p TLSProfile) Equal(other TLSProfile) bool {
	return p.MinVersion == other.MinVersion && slices.Equal(p.CipherSuites, other.CipherSuites)
}

// String names the profile's version and ciphers, for the logs.
func (p TLSProfile) String() string {
	names := make([]string, 0, len(p.CipherSuites))
	for _, suite := range p.CipherSuites {
		names = append(names, tls.CipherSuiteName(suite))
	}
	return fmt.Sprintf("minimum %s, ciphers %s", tls.VersionName(p.MinVersion), strings.Join(names, ","))
}
