"""A schema-2 cuda-stack-budget.json as schema 1's shape (src/site/markdown/report-schema.md, "Reading v2 as v1").

    import report_v1; report = report_v1.load(path)   # v1 files pass through unchanged
"""
import json

RECORD_FIELDS = ("worstKernel", "worstLocalKernel", "nextWorstKernel", "launchedWorstKernel", "staticWorstKernel")
NOTE_FIELDS = ("ambiguousKernels", "jitKernels", "cannotRunKernels", "launchedJitKernels", "launchedCannotRunKernels")


def as_version_one(report):
    if report.get("schemaVersion") != 2:
        return report
    labels = report.pop("libraryLabels")
    report.pop("imageFields", None)
    report.pop("records", None)
    kernels, functions = [], []
    for f in report.pop("functions"):
        base = {"name": f["name"], "displayName": f.get("displayName", f["name"]), "library": labels[f["library"]]}
        functions.append(base)
        for arch, registers, stack, shared, local in f["images"]:
            k = dict(base, arch=arch, registers=registers, stack=stack, shared=shared, local=local)
            if stack is None:
                k["stackUnknown"] = True
            kernels.append(k)

    def record(value):
        return dict(kernels[value]) if isinstance(value, int) else value

    def records(node):
        for field in RECORD_FIELDS:
            if field in node:
                node[field] = record(node[field])

    for library in report["libraries"]:
        records(library)
    for device in report["devices"]:
        records(device)
        device["unknownStackKernels"] = [record(k) for k in device["unknownStackKernels"]]
        for field in NOTE_FIELDS:
            if field in device:
                device[field] = [dict(functions[n["function"]], **{k: v for k, v in n.items() if k != "function"})
                                 for n in device[field]]
        if "launchedKernels" in device:
            device["launchedKernels"] = [dict(record(r["kernel"]), **{k: v for k, v in r.items() if k != "kernel"})
                                         for r in device["launchedKernels"]]
        for platform in device.get("platforms", []):
            records(platform)
    report["schemaVersion"] = 1
    report["kernels"] = kernels
    return report


def load(path):
    with open(path, encoding="utf-8") as f:
        return as_version_one(json.load(f))
