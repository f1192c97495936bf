import Foundation

/// The CONTRACT FAKE's OpenAPI check: every request Slipway sends and every answer the fake
/// gives is validated against Apple's published OpenAPI document (App Store Connect API 4.4.1,
/// `../shared/apple/app-store-connect-openapi-4.4.1.json.gz`). Disagreements go into
/// `State.violations`, worded as below (exact texts; tests assert them):
///
/// - `GET /v1/nope: not a path of the OpenAPI document`
/// - `DELETE /v1/apps/1: /v1/apps/{id} has no DELETE operation in the OpenAPI document`
/// - `GET /v1/apps: query parameter 'filter[nope]' is not documented for this operation`
/// - `GET /v1/apps: query parameter 'fields[apps]' has 'nope', not one of its 55 documented values`
/// - `GET /v1/apps: query parameter 'limit' is 500, more than its maximum 200`
/// - `POST /v1/buildUploads: body data.attributes has undocumented member 'foo'`
/// - `GET /v1/apps/1: answer 200 data.attributes has undocumented member 'foo'`
///
/// Strict: an object member the document does not list is a violation even where the document
/// does not say `additionalProperties: false`; `null` only where it says `nullable`. `oneOf` is
/// resolved through its discriminator or the resource `type`. `cursor` is accepted on paged
/// GETs (those with `limit`): Apple's `links.next` carry it, although no operation lists it.
/// Not in this document, so not checked here (their own checks stay in their sections): the
/// upload operations' part PUTs (`/upload-parts/...`, Apple's storage hosts) and the Notary API
/// (`/notary/v2/...`, and its log download `/notary-logs/...`).
///
/// The answer is also shaped by the document before it is checked (the fake's store keeps more
/// links than Apple shows): relationships the resource's schema does not list are left out,
/// `fields[type]` limits relationships as well as attributes, null attributes the document does
/// not allow are left out, and `include=name` adds the linked resources to `included` where the
/// response schema has `included`. Setting `linkage`: `"always"` (default) answers every
/// relationship's `data`; `"included_only"` answers linkage only for relationships named in
/// `include`, the other reading Apple's pages allow.
extension AppStoreConnectContractFake {
    /// Where Apple's OpenAPI document is: `$SLIPWAY_ASC_OPENAPI`, or
    /// `../shared/apple/app-store-connect-openapi-4.4.1.json.gz` beside the repository.
    public static var openAPIDocumentPath: String {
        ProcessInfo.processInfo.environment["SLIPWAY_ASC_OPENAPI"]
            ?? URL(fileURLWithPath: Corpus.repositoryRoot + "/../shared/apple/app-store-connect-openapi-4.4.1.json.gz").standardizedFileURL.path
    }

    static let openAPI = #"""
        import gzip
        with gzip.open(CONFIG["spec"]) as spec_file:
            SPEC = json.load(spec_file)
        SCHEMAS = SPEC["components"]["schemas"]
        TEMPLATES = []
        for template, item in SPEC["paths"].items():
            segments = template.strip("/").split("/")
            rx = "^/" + "/".join("[^/]+" if s.startswith("{") else re.escape(s) for s in segments) + "$"
            TEMPLATES.append((re.compile(rx), sum(1 for s in segments if not s.startswith("{")), template, item))
        RESOURCE_SCHEMAS = {}
        for name, schema in sorted(SCHEMAS.items(), key=lambda item: len(item[0])):
            props = schema.get("properties", {})
            kinds = props.get("type", {}).get("enum") or []
            if len(kinds) == 1 and "links" in props and "id" in props:
                RESOURCE_SCHEMAS.setdefault(kinds[0], schema)
        SPEC_EXEMPT = ("/upload-parts/", "/notary/", "/notary-logs/")

        def resolve(schema):
            while "$ref" in schema:
                schema = SCHEMAS[schema["$ref"].split("/")[-1]]
            return schema

        def join(where, name):
            return name if not where else where + "." + name

        def check_value(value, schema, where, out):
            schema = resolve(schema)
            if value is None:
                if not schema.get("nullable"):
                    out.append("%s is null, which the document does not allow" % (where or "the document"))
                return
            if "oneOf" in schema:
                options = [resolve(o) for o in schema["oneOf"]]
                disc = schema.get("discriminator") or {}
                if isinstance(value, dict) and value.get(disc.get("propertyName")) in disc.get("mapping", {}):
                    return check_value(value, {"$ref": disc["mapping"][value[disc["propertyName"]]]}, where, out)
                if isinstance(value, dict) and "type" in value:
                    typed = [o for o in options if value["type"] in (o.get("properties", {}).get("type", {}).get("enum") or [])]
                    if len(typed) == 1:
                        return check_value(value, typed[0], where, out)
                    if not typed and all("enum" in o.get("properties", {}).get("type", {}) for o in options):
                        out.append("%s has type '%s', not one the document allows here" % (where or "the document", value["type"]))
                        return
                results = []
                for option in options:
                    found = []
                    check_value(value, option, where, found)
                    if not found:
                        return
                    results.append(found)
                out.append("%s matches none of its oneOf schemas (closest: %s)" % (where or "the document", min(results, key=len)[0]))
                return
            kind = schema.get("type")
            if kind == "object" or (kind is None and "properties" in schema):
                if not isinstance(value, dict):
                    out.append("%s is %s, not an object" % (where or "the document", type(value).__name__))
                    return
                props = schema.get("properties", {})
                extra = schema.get("additionalProperties")
                for name in schema.get("required", []):
                    if name not in value:
                        out.append("%s lacks required member '%s'" % (where or "the document", name))
                for name, item in value.items():
                    if name in props:
                        check_value(item, props[name], join(where, name), out)
                    elif isinstance(extra, dict):
                        check_value(item, extra, join(where, name), out)
                    elif extra is not True:
                        out.append("%s has undocumented member '%s'" % (where or "the document", name))
            elif kind == "array":
                if not isinstance(value, list):
                    out.append("%s is %s, not an array" % (where or "the document", type(value).__name__))
                    return
                for index, item in enumerate(value):
                    check_value(item, schema.get("items", {}), "%s[%d]" % (where, index), out)
            elif kind == "string":
                if not isinstance(value, str):
                    out.append("%s is %s, not a string" % (where, type(value).__name__))
                elif "enum" in schema and value not in schema["enum"]:
                    out.append("%s is '%s', not one of %s" % (where, value, schema["enum"]))
            elif kind == "integer":
                if not isinstance(value, int) or isinstance(value, bool):
                    out.append("%s is %s, not an integer" % (where, type(value).__name__))
                elif "maximum" in schema and value > schema["maximum"]:
                    out.append("%s is %d, more than its maximum %s" % (where, value, schema["maximum"]))
            elif kind == "number":
                if not isinstance(value, (int, float)) or isinstance(value, bool):
                    out.append("%s is %s, not a number" % (where, type(value).__name__))
            elif kind == "boolean":
                if not isinstance(value, bool):
                    out.append("%s is %s, not a boolean" % (where, type(value).__name__))

        def spec_operation(method, path):
            # The documented template with the most literal segments wins (/v1/apps/{id}/builds over /v1/apps/{id}/{x}).
            matches = sorted([(count, template, item) for rx, count, template, item in TEMPLATES if rx.match(path)], key=lambda m: -m[0])
            if not matches:
                return None, "not a path of the OpenAPI document"
            template, item = matches[0][1], matches[0][2]
            operation = item.get(method.lower())
            if operation is None:
                return None, "%s has no %s operation in the OpenAPI document" % (template, method)
            return operation, None

        def spec_check_request(req):
            if req.path.startswith(SPEC_EXEMPT):
                return []
            operation, problem = spec_operation(req.command, req.path)
            if operation is None:
                return [problem]
            problems = []
            params = {p["name"]: p for p in operation.get("parameters", []) if p.get("in") == "query"}
            for name, value in req.pairs:
                if name == "cursor" and req.command == "GET" and "limit" in params:
                    continue
                if name not in params:
                    problems.append("query parameter '%s' is not documented for this operation" % name)
                    continue
                schema = resolve(params[name].get("schema", {}))
                if schema.get("type") == "array":
                    allowed = resolve(schema.get("items", {})).get("enum")
                    for part in value.split(","):
                        if allowed is not None and part not in allowed:
                            problems.append("query parameter '%s' has '%s', not one of its %d documented values" % (name, part, len(allowed)))
                elif schema.get("type") == "integer":
                    if not re.match(r"^-?\d+$", value):
                        problems.append("query parameter '%s' is '%s', not an integer" % (name, value))
                    elif "maximum" in schema and int(value) > schema["maximum"]:
                        problems.append("query parameter '%s' is %s, more than its maximum %s" % (name, value, schema["maximum"]))
                elif "enum" in schema and value not in schema["enum"]:
                    problems.append("query parameter '%s' has '%s', not one of %s" % (name, value, schema["enum"]))
            for name, param in params.items():
                if param.get("required") and name not in req.query:
                    problems.append("required query parameter '%s' is missing" % name)
            body = operation.get("requestBody")
            raw = getattr(req, "body", b"") or b""
            if body is None:
                if raw:
                    problems.append("the operation takes no body, but one was sent")
                return problems
            schema = body.get("content", {}).get("application/json", {}).get("schema")
            if not raw:
                if body.get("required"):
                    problems.append("the operation requires a body, and none was sent")
                return problems
            try:
                document = json.loads(raw)
            except ValueError:
                return problems + ["the body is not JSON"]
            found = []
            check_value(document, schema or {}, "", found)
            return problems + ["body " + f for f in found]

        def spec_shape_answer(req, status, doc):
            # Shapes a 2xx answer the way Apple's would look (see the doc comment), before it is checked.
            if req.path.startswith(SPEC_EXEMPT) or not isinstance(doc, dict) or not (200 <= (status or 0) < 300):
                return doc
            wanted = [n for n in (req.one("include") or "").split(",") if n]
            primary = doc.get("data")
            items = primary if isinstance(primary, list) else [primary] if isinstance(primary, dict) else []
            included = list(doc.get("included") or [])
            seen = set((i.get("type"), i.get("id")) for i in included)
            added = []
            for item in items:
                spec_shape_answer_item(req, item, wanted, seen, added)
            if added:
                for included_item in added:
                    spec_shape_answer_item(req, included_item, [], seen, [])
                doc["included"] = included + added
            return doc

        def spec_shape_answer_item(req, item, wanted, seen, added):
            # One resource of an answer: only the relationships its schema documents (and `fields`
            # asks for), their targets put in `added` when `include` names them; no attributes the
            # schema gives none of; no null where the document does not say nullable.
            schema = RESOURCE_SCHEMAS.get(item.get("type"), {})
            documented = resolve(schema.get("properties", {}).get("relationships", {"properties": {}})).get("properties", {})
            fields = req.fields(item.get("type"))
            rels = {}
            for name, link in (item.get("relationships") or {}).items():
                if name not in documented or (fields is not None and name not in fields):
                    continue
                linkage = link.get("data") if isinstance(link, dict) else None
                if name in wanted:
                    for target in (linkage if isinstance(linkage, list) else [linkage] if linkage else []):
                        key = (target["type"], target["id"])
                        found = store.get(target["type"], {}).get(target["id"])
                        if found is not None and key not in seen:
                            seen.add(key)
                            added.append(resource_json(found, req.base, req.fields(target["type"])))
                if SETTINGS.get("linkage", "always") == "included_only" and name not in wanted:
                    continue
                if "data" not in resolve(documented[name]).get("properties", {}) or linkage is None:
                    continue
                rels[name] = {"data": linkage}
            if rels:
                item["relationships"] = rels
            else:
                item.pop("relationships", None)
            if "attributes" not in schema.get("properties", {"attributes": 1}) and not item.get("attributes"):
                item.pop("attributes", None)  # e.g. buildBetaNotifications: the document gives them none
            attributes = resolve(schema.get("properties", {}).get("attributes", {})).get("properties", {})
            for name in [n for n, v in (item.get("attributes") or {}).items() if v is None]:
                if not resolve(attributes.get(name, {})).get("nullable"):
                    del item["attributes"][name]

        def spec_check_answer(req, status, doc):
            if req.path.startswith(SPEC_EXEMPT) or status is None:
                return []
            operation, problem = spec_operation(req.command, req.path)
            if operation is None:
                return []  # already reported for the request
            answer = operation.get("responses", {}).get(str(status))
            if answer is None:
                if status < 400:
                    return ["answer %d is not a status the document lists for this operation" % status]
                answer = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}}}
            schema = answer.get("content", {}).get("application/json", {}).get("schema")
            if schema is None:
                return [] if doc is None else ["answer %d has a body, but the document lists none" % status]
            if doc is None:
                return ["answer %d has no body, but the document lists one" % status]
            found = []
            check_value(doc, schema, "", found)
            return ["answer %d %s" % (status, f) if not f.startswith("the document") else "answer %d%s" % (status, f[12:]) for f in found]
        """#
}
