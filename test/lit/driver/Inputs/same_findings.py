"""same_findings.py <all.json> <one.json>...: the findings of one torchtidy run
over several files are those of the runs over each file, concatenated;
every message ends without a "[check]" tag of its own."""
import json
import sys


def findings(path):
    with open(path, encoding="utf-8") as report:
        return json.load(report)["findings"]


combined = findings(sys.argv[1])
separate = [f for path in sys.argv[2:] for f in findings(path)]
if combined != separate:
    for mine, theirs in zip(combined, separate):
        if mine != theirs:
            print(f"differs: {mine['file']}:{mine['line']} "
                  f"{mine['check']} vs {theirs['check']}")
    sys.exit(1)
tagged = [f for f in combined if f["message"].endswith("]")]
if tagged:
    print(f"message with a check tag: {tagged[0]['message']}")
    sys.exit(1)
print(f"{len(combined)} findings, each with its own check: "
      + ", ".join(sorted({f['check'] for f in combined})))
