"""Checks a SARIF file against what SARIF 2.1.0 requires and what GitHub code
scanning reads: exits non-zero naming the first violation. With --schema
<sarif-schema-2.1.0.json>, the whole file is also validated against the
standard's schema (python3-jsonschema)."""
import json
import sys


def fail(message):
    print("SARIF INVALID: " + message)
    sys.exit(1)


def need(obj, key, kind, where):
    if key not in obj or not isinstance(obj[key], kind):
        fail(f"{where}.{key} missing or not {kind.__name__}")
    return obj[key]


def check_location(loc, where):
    phys = need(loc, "physicalLocation", dict, where)
    art = need(phys, "artifactLocation", dict, where + ".physicalLocation")
    need(art, "uri", str, where + ".artifactLocation")
    region = need(phys, "region", dict, where + ".physicalLocation")
    if need(region, "startLine", int, where + ".region") < 1:
        fail(where + ".region.startLine < 1")
    if need(region, "startColumn", int, where + ".region") < 1:
        fail(where + ".region.startColumn < 1")


arguments = sys.argv[1:]
schema = None
if arguments[:1] == ["--schema"]:
    schema, arguments = arguments[1], arguments[2:]
doc = json.load(open(arguments[0]))
if schema:
    import jsonschema
    standard = json.load(open(schema))
    validator = jsonschema.validators.validator_for(standard)(standard)
    errors = sorted(validator.iter_errors(doc),
                    key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        fail("schema: " + "/".join(map(str, errors[0].absolute_path)) + ": "
             + errors[0].message[:200])
if doc.get("version") != "2.1.0":
    fail("version is not 2.1.0")
need(doc, "$schema", str, "log")
runs = need(doc, "runs", list, "log")
if len(runs) != 1:
    fail("expected one run")
run = runs[0]
driver = need(need(run, "tool", dict, "run"), "driver", dict, "run.tool")
need(driver, "name", str, "driver")
rules = need(driver, "rules", list, "driver")
rule_ids = []
for i, rule in enumerate(rules):
    rule_ids.append(need(rule, "id", str, f"rules[{i}]"))
    need(need(rule, "shortDescription", dict, f"rules[{i}]"), "text", str, "shortDescription")
    help_text = need(need(rule, "help", dict, f"rules[{i}]"), "text", str, "help")
    if rule["id"] not in help_text:
        fail(f"rules[{i}].help does not document {rule['id']}")
results = need(run, "results", list, "run")
fixes = related = flows = 0
for i, res in enumerate(results):
    where = f"results[{i}]"
    rule_id = need(res, "ruleId", str, where)
    if "ruleIndex" in res and rule_ids[res["ruleIndex"]] != rule_id:
        fail(where + ".ruleIndex does not point at its rule")
    if res.get("level") not in ("warning", "error", "note", "none"):
        fail(where + ".level invalid")
    need(need(res, "message", dict, where), "text", str, where + ".message")
    locations = need(res, "locations", list, where)
    if not locations:
        fail(where + ".locations empty")
    for j, loc in enumerate(locations):
        check_location(loc, f"{where}.locations[{j}]")
    for j, loc in enumerate(res.get("relatedLocations", [])):
        check_location(loc, f"{where}.relatedLocations[{j}]")
        need(need(loc, "message", dict, where), "text", str, where)
        related += 1
    # The notes as a path: each note a step, in order, then the result.
    for j, flow in enumerate(res.get("codeFlows", [])):
        threads = need(flow, "threadFlows", list, f"{where}.codeFlows[{j}]")
        if len(threads) != 1:
            fail(f"{where}.codeFlows[{j}]: expected one thread flow")
        steps = need(threads[0], "locations", list, "threadFlow")
        notes = res.get("relatedLocations", [])
        if len(steps) != len(notes) + 1:
            fail(f"{where}.codeFlows[{j}]: {len(steps)} steps for "
                 f"{len(notes)} notes")
        for k, step in enumerate(steps):
            location = need(step, "location", dict, f"threadFlow[{k}]")
            check_location(location, f"{where}.threadFlow[{k}]")
            text = need(need(location, "message", dict, "step"), "text",
                        str, "step")
            expected = (notes[k] if k < len(notes) else
                        {"physicalLocation": locations[0]["physicalLocation"],
                         "message": res["message"]})
            if (location["physicalLocation"] != expected["physicalLocation"]
                    or text != expected["message"]["text"]):
                fail(f"{where}.threadFlow[{k}] is not "
                     + ("note " + str(k) if k < len(notes) else "the result"))
        flows += 1
    if res.get("relatedLocations") and not res.get("codeFlows"):
        fail(where + " has notes but no code flow")
    for j, fix in enumerate(res.get("fixes", [])):
        for change in need(fix, "artifactChanges", list, f"{where}.fixes[{j}]"):
            need(need(change, "artifactLocation", dict, "change"), "uri", str, "change")
            for rep in need(change, "replacements", list, "change"):
                need(rep, "deletedRegion", dict, "replacement")
                need(need(rep, "insertedContent", dict, "replacement"), "text", str, "insertedContent")
        fixes += 1
print(f"SARIF OK: {len(rules)} rules, {len(results)} results, "
      f"{related} related locations, {flows} code flows, {fixes} fixes"
      + (", schema-valid" if schema else ""))
