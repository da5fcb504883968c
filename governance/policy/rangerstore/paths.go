package rangerstore

// API paths, under the base URL.
const (
	policiesDownloadPath = "/service/plugins/secure/policies/download/"
	rolesDownloadPath    = "/service/roles/secure/download/"
	servicePath          = "/service/public/v2/api/service/"
	policyPath           = "/service/public/v2/api/policy"
	// The tag store (TagREST): a service's tagged resources, and the
	// import tagsync uploads with.
	tagResourcesPath      = "/service/tags/resources/service/"
	importServiceTagsPath = "/service/tags/importservicetags/"
)

// maxAnswer bounds what is read of one answer: a download of a large
// service is a few megabytes.
const maxAnswer = 256 << 20
