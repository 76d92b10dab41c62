// The client is generated from the API's description (web/openapi.json) and committed, so
// that client generators are known to accept the description and the tests can use it. Run
// go generate ./web/apiclient after changing the description; a test fails until you do.
// skip-prune keeps every schema, the seamless-wallet webhooks' included.
//
//go:generate go tool oapi-codegen -generate types,client,skip-prune -package apiclient -o client.gen.go ../openapi.json

package apiclient
