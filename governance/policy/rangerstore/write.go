package rangerstore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/sqe-db/sqe/governance/policy"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/governance/rangerrest"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// services are the Ranger services gate two writes to: the hive-model
// service and its linked tag service ("" when none is linked).
type services struct {
	hive, tag string
}

// rangerService is the part of RangerService the store reads.
type rangerService struct {
	Name       string `json:"name"`
	TagService string `json:"tagService"`
}

// namedPolicy is a policy found by name, with the service holding it.
type namedPolicy struct {
	service string
	policy  ranger.Policy
}

// PutPolicy creates the policy named p.Name or, with replace, replaces
// it: a tag policy in the linked tag service, any other in the
// hive-model service.
func (s *Store) PutPolicy(ctx context.Context, p ranger.Policy, replace bool) error {
	svcs, err := s.services(ctx)
	if err != nil {
		return err
	}
	found, err := s.findPolicy(ctx, svcs, p.Name)
	if err != nil {
		return err
	}
	if len(found) > 0 && !replace {
		return pgerror.New(pgerror.DuplicateObject, "policy \"%s\" already exists", p.Name).
			WithHint("Use CREATE OR REPLACE POLICY to change it.")
	}
	return s.write(ctx, svcs, found, p)
}

// EditPolicy reads the policy named name from either service (the
// hive-model service's when both hold one), hands it to edit and writes
// edit's answer: PUT over the policy read, POST for a new one, DELETE
// for none. The policy edit gets is Ranger's JSON, so fields SQE does not
// change survive.
func (s *Store) EditPolicy(ctx context.Context, name string, edit policy.PolicyEdit) error {
	svcs, err := s.services(ctx)
	if err != nil {
		return err
	}
	found, err := s.findPolicy(ctx, svcs, name)
	if err != nil {
		return err
	}
	var current *ranger.Policy
	var before []byte
	if len(found) > 0 {
		c := found[0].policy
		current = &c
		if before, err = json.Marshal(c); err != nil {
			return fmt.Errorf("encode policy %s: %w", name, err)
		}
	}
	next, err := edit(current)
	if err != nil {
		return err
	}
	if next != nil && before != nil {
		// An edit that changes nothing writes nothing.
		if after, err := json.Marshal(next); err == nil && bytes.Equal(after, before) {
			return nil
		}
	}
	switch {
	case next == nil && len(found) == 0:
		return nil
	case next == nil:
		defer s.Flush()
		for _, f := range found {
			if err := s.deletePolicy(ctx, f); err != nil {
				return err
			}
		}
		return nil
	case next.Name != name:
		return fmt.Errorf("edit of policy %s renames it to %s", name, next.Name)
	}
	return s.write(ctx, svcs, found, *next)
}

// write stores p over the policies found under its name: a tag policy in
// the linked tag service, any other in the hive-model service.
func (s *Store) write(ctx context.Context, svcs services, found []namedPolicy, p ranger.Policy) error {
	target := svcs.hive
	if policy.IsTagPolicy(&p) {
		if svcs.tag == "" {
			return pgerror.New(pgerror.ObjectNotInPrerequisiteState, "Ranger service %q has no linked tag service for tag policy \"%s\"", svcs.hive, p.Name).
				WithHint("Link a tag service to service %q in Ranger Admin.", svcs.hive)
		}
		target = svcs.tag
	}
	// A write whose answer is lost may have landed: flush either way.
	defer s.Flush()

	var err error
	p.Service, p.ID, p.GUID, p.Version = target, 0, "", 0
	var moved []namedPolicy
	for _, f := range found {
		if f.service == target {
			p.ID, p.GUID = f.policy.ID, f.policy.GUID
		} else {
			moved = append(moved, f)
		}
	}
	if p.ID != 0 {
		_, err = s.client.Do(ctx, http.MethodPut, policyPath+"/"+strconv.FormatInt(p.ID, 10), nil, &p, nil)
	} else {
		_, err = s.client.Do(ctx, http.MethodPost, policyPath, nil, &p, nil)
	}
	if err != nil {
		return s.writeError(err, p.Name, target)
	}
	// A policy replaced by one of the other kind moves service. The new
	// one is written first, so that the name never protects nothing.
	for _, f := range moved {
		if err := s.deletePolicy(ctx, f); err != nil {
			return err
		}
	}
	return nil
}

// DropPolicy removes the policy named name from either service and
// reports whether it existed.
func (s *Store) DropPolicy(ctx context.Context, name string) (bool, error) {
	svcs, err := s.services(ctx)
	if err != nil {
		return false, err
	}
	found, err := s.findPolicy(ctx, svcs, name)
	if err != nil || len(found) == 0 {
		return false, err
	}
	defer s.Flush()
	for _, f := range found {
		if err := s.deletePolicy(ctx, f); err != nil {
			return false, err
		}
	}
	return true, nil
}

// services reads which tag service is linked to the hive-model service
// now: it can be changed in Ranger's console at any time.
func (s *Store) services(ctx context.Context) (services, error) {
	var rs rangerService
	_, err := s.client.Do(ctx, http.MethodGet, servicePath+"name/"+url.PathEscape(s.cfg.ServiceName), nil, nil, &rs)
	if rangerrest.StatusOf(err) == http.StatusNotFound {
		return services{}, noSuchService(err, s.cfg.ServiceName)
	}
	if err != nil {
		return services{}, s.userError(err, fmt.Sprintf("read Ranger service %q", s.cfg.ServiceName))
	}
	return services{hive: s.cfg.ServiceName, tag: rs.TagService}, nil
}

// findPolicy looks the name up in both services.
func (s *Store) findPolicy(ctx context.Context, svcs services, name string) ([]namedPolicy, error) {
	var found []namedPolicy
	for _, service := range []string{svcs.hive, svcs.tag} {
		if service == "" {
			continue
		}
		var p ranger.Policy
		path := servicePath + url.PathEscape(service) + "/policy/" + url.PathEscape(name)
		_, err := s.client.Do(ctx, http.MethodGet, path, nil, nil, &p)
		switch {
		case rangerrest.StatusOf(err) == http.StatusNotFound:
			continue
		case err != nil:
			return nil, s.userError(err, fmt.Sprintf("look up policy \"%s\" in Ranger service %q", name, service))
		}
		found = append(found, namedPolicy{service: service, policy: p})
	}
	return found, nil
}

// deletePolicy removes a policy found by name. One already gone (deleted
// meanwhile in the console) is not an error.
func (s *Store) deletePolicy(ctx context.Context, f namedPolicy) error {
	_, err := s.client.Do(ctx, http.MethodDelete, policyPath+"/"+strconv.FormatInt(f.policy.ID, 10), nil, nil, nil)
	if err != nil && rangerrest.StatusOf(err) != http.StatusNotFound {
		return s.userError(err, fmt.Sprintf("drop policy \"%s\" from Ranger service %q", f.policy.Name, f.service))
	}
	return nil
}

// writeError explains a refused create or update: Ranger's validation
// messages are for the author of the policy.
func (s *Store) writeError(err error, name, service string) error {
	var he *rangerrest.HTTPError
	if !errors.As(err, &he) {
		return s.userError(err, fmt.Sprintf("write policy \"%s\" to Ranger service %q", name, service))
	}
	switch he.ValidationCode() {
	case rangerrest.ValidationNameConflict:
		// Created meanwhile by someone else.
		return pgerror.Wrap(err, pgerror.DuplicateObject, "policy \"%s\" already exists", name).
			WithHint("Use CREATE OR REPLACE POLICY to change it.")
	case rangerrest.ValidationResourceConflict:
		return pgerror.Wrap(err, pgerror.DuplicateObject, "another policy in Ranger service %q already covers the resources of policy \"%s\"", service, name).
			WithDetail("Ranger Admin answered: %s", he.Message).
			WithHint("Ranger allows one policy of a kind per resource: add the grantees to that policy, or replace it.")
	case "":
		return s.userError(err, fmt.Sprintf("write policy \"%s\" to Ranger service %q", name, service))
	}
	return pgerror.Wrap(err, pgerror.InvalidParameterValue, "Ranger Admin rejected policy \"%s\"", name).
		WithDetail("%s", he.Message)
}
