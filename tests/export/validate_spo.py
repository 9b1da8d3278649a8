#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the SeccompProfile documents of `wardc export --format k8s`
against the Security Profiles Operator's CRD (tests/export/upstream/
spo-seccompprofile-crd.yaml), as the API server would: the apiVersion is
a served version of the CRD, the kind is its kind, metadata fits the
CRD's scope, and the object validates against that version's
openAPIV3Schema (unknown fields refused, as strict field validation
does; integer formats int32/int64 enforced, as the API server does).

    validate_spo.py CRD.yaml LAYOUT FILE.yaml...

LAYOUT is cluster (the operator v0.9.0 and later: cluster-scoped, API v1,
operator/NAME.json) or namespaced (older operators: v1beta1, a namespace,
operator/NAMESPACE/NAME.json); the Pod's localhostProfile must name the
path the operator writes. Prints PASS/FAIL lines; exits 1 if any failed.
Needs python3-yaml.
"""

import re
import sys

import yaml

# The keywords of the schema this validator understands; any other makes
# the check fail (it would otherwise be skipped quietly).
KNOWN = {"type", "properties", "required", "items", "enum", "pattern",
         "format", "minimum", "maximum", "minItems", "maxItems",
         "minLength", "maxLength", "default", "description",
         "x-kubernetes-list-type", "x-kubernetes-list-map-keys",
         "additionalProperties"}

INT_RANGES = {"int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1)}


def validate(schema, value, path, errors):
    unknown = set(schema) - KNOWN
    if unknown:
        errors.append("%s: the schema uses %s, which this check does not "
                      "know" % (path, ", ".join(sorted(unknown))))
        return
    t = schema.get("type")
    checks = {
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, (int, float))
        and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
    }
    if t and not checks[t](value):
        errors.append("%s: %r is not of type %s" % (path, value, t))
        return
    if "enum" in schema and value not in schema["enum"]:
        errors.append("%s: %r is not one of %s" % (path, value,
                                                  schema["enum"]))
    if t == "integer":
        fmt = schema.get("format")
        if fmt in INT_RANGES:
            lo, hi = INT_RANGES[fmt]
            if not lo <= value <= hi:
                errors.append("%s: %d does not fit %s" % (path, value, fmt))
        if "minimum" in schema and value < schema["minimum"]:
            errors.append("%s: %d is below %d" % (path, value,
                                                 schema["minimum"]))
        if "maximum" in schema and value > schema["maximum"]:
            errors.append("%s: %d is above %d" % (path, value,
                                                 schema["maximum"]))
    if t == "string":
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append("%s: %r does not match %s" % (path, value,
                                                       schema["pattern"]))
        if len(value) < schema.get("minLength", 0) or \
                len(value) > schema.get("maxLength", len(value)):
            errors.append("%s: %r has a length out of bounds" % (path,
                                                                value))
    if t == "array":
        if len(value) < schema.get("minItems", 0) or \
                len(value) > schema.get("maxItems", len(value)):
            errors.append("%s: %d items, out of bounds" % (path,
                                                          len(value)))
        lt = schema.get("x-kubernetes-list-type")
        if lt == "set":
            seen = [yaml.safe_dump(v) for v in value]
            if len(set(seen)) != len(seen):
                errors.append("%s: a set holds an item twice" % path)
        if lt == "map":
            keys = [tuple(v.get(k) for k in
                          schema.get("x-kubernetes-list-map-keys", []))
                    for v in value]
            if len(set(keys)) != len(keys):
                errors.append("%s: a map list repeats a key" % path)
        for i, item in enumerate(value):
            validate(schema.get("items", {}), item, "%s[%d]" % (path, i),
                     errors)
    if t == "object":
        props = schema.get("properties")
        for k in schema.get("required", []):
            if k not in value:
                errors.append("%s: `%s` is required" % (path, k))
        for k, v in value.items():
            if props is not None and k in props:
                validate(props[k], v, "%s.%s" % (path, k), errors)
            elif "additionalProperties" in schema:
                if isinstance(schema["additionalProperties"], dict):
                    validate(schema["additionalProperties"], v,
                             "%s.%s" % (path, k), errors)
            elif props is not None:
                errors.append("%s: unknown field `%s`" % (path, k))


def check_metadata(meta, scope, layout, errors):
    name = meta.get("name", "")
    # an object name: a DNS subdomain
    if not re.fullmatch(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
                        r"(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*", name) or \
            len(name) > 253:
        errors.append("metadata.name: %r is not a DNS subdomain" % name)
    if layout == "cluster":
        if scope != "Cluster":
            errors.append("the CRD's scope is %s, not Cluster" % scope)
        if "namespace" in meta:
            errors.append("metadata.namespace on a cluster-scoped object")
    elif "namespace" not in meta:
        errors.append("metadata.namespace missing (namespaced layout)")


def check_file(crd, layout, path):
    errors = []
    with open(path) as f:
        docs = [d for d in yaml.safe_load_all(f) if d]
    profiles = [d for d in docs if d.get("kind") == "SeccompProfile"]
    pods = [d for d in docs if d.get("kind") == "Pod"]
    if len(profiles) != 1 or len(pods) != 1:
        return ["%d SeccompProfile and %d Pod documents, wanted 1 each"
                % (len(profiles), len(pods))]
    prof, pod = profiles[0], pods[0]
    group = crd["spec"]["group"]
    api = prof.get("apiVersion", "")
    want_version = "v1" if layout == "cluster" else "v1beta1"
    if api != "%s/%s" % (group, want_version):
        errors.append("apiVersion %s, wanted %s/%s" % (api, group,
                                                       want_version))
    if prof.get("kind") != crd["spec"]["names"]["kind"]:
        errors.append("kind %s" % prof.get("kind"))
    version = [v for v in crd["spec"]["versions"]
               if "%s/%s" % (group, v["name"]) == api]
    if not version or not version[0].get("served"):
        errors.append("%s is not a served version of the CRD" % api)
        return errors
    check_metadata(prof.get("metadata") or {}, crd["spec"]["scope"], layout,
                   errors)
    validate(version[0]["schema"]["openAPIV3Schema"], prof, "$", errors)
    name = prof["metadata"]["name"]
    want_path = ("operator/%s.json" % name if layout == "cluster" else
                 "operator/%s/%s.json" % (prof["metadata"].get("namespace"),
                                          name))
    sp = pod.get("spec", {}).get("securityContext", {}).get(
        "seccompProfile", {})
    if sp.get("type") != "Localhost" or sp.get("localhostProfile") != \
            want_path:
        errors.append("the Pod's seccompProfile is %r, wanted Localhost "
                      "%s" % (sp, want_path))
    return errors


def main():
    crd_path, layout, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(crd_path) as f:
        crd = yaml.safe_load(f)
    failed = 0
    for path in files:
        errors = check_file(crd, layout, path)
        label = path.rsplit("/", 1)[-1]
        if errors:
            failed += 1
            print("FAIL spo-%s/%s: %d problems: %s" % (
                layout, label, len(errors), "; ".join(errors[:4])))
        else:
            print("PASS spo-%s/%s" % (layout, label))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
