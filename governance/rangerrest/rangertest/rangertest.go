// Package rangertest holds what the tests' fake Ranger Admin servers
// share: the basic-auth check Spring Security makes in front of every
// REST endpoint, Ranger's RESTResponse error body, and JSON in and out.
// Each fake keeps its own endpoints, state and injected faults.
package rangertest

import (
	"encoding/json"
	"net/http"
)

// Authenticated reports whether r carries user and password as HTTP
// basic auth, and answers 401 with no body, as Ranger Admin does, when
// it does not.
func Authenticated(w http.ResponseWriter, r *http.Request, user, password string) bool {
	if u, p, ok := r.BasicAuth(); ok && u == user && p == password {
		return true
	}
	w.WriteHeader(http.StatusUnauthorized)
	return false
}

// RESTError answers status with Ranger's RESTResponse error body: the
// message in msgDesc and again in messageList.
func RESTError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"statusCode": 1, "msgDesc": msg,
		"messageList": []map[string]any{{"message": msg}}})
}

// WriteJSON answers 200 with v as JSON.
func WriteJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// Decode reads r's JSON body into a T, answering 400 with the decoding
// error when it is not one.
func Decode[T any](w http.ResponseWriter, r *http.Request) (T, bool) {
	var v T
	if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
		RESTError(w, http.StatusBadRequest, err.Error())
		return v, false
	}
	return v, true
}
