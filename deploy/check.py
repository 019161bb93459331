#!/usr/bin/env python3
"""Checks the deployment files against each other and against the server's flags.

Usage: python3 deploy/check.py PATH/TO/arbor   (CI: target/debug/arbor after the tests)

Nothing in deploy/ can be applied on a CI machine, so this checks what can be checked: every
YAML file parses; the game port is the same in the Dockerfile (--listen, EXPOSE) and the
Fleet; the metrics port is the same in --metrics, EXPOSE, the probes and the scrape
annotations; every --flag the image and the Fleet pass is one `arbor serve --help` lists
(given once); every $(VAR) in the Fleet's args is defined; the paths given to --key and
--data are on mounted volumes; Kubernetes' termination grace outlasts --grace; the players
list holds --max-clients; the Agones health period, SDK port and autoscaler are consistent.
Exits 1 with one line per problem.
"""

import json
import re
import subprocess
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
# The server pings Agones' Health this often while its tick advances.
HEALTH_PING_SECONDS = 2
# Agones' default SDK sidecar ports (the server reads AGONES_SDK_HTTP_PORT, which Agones sets).
SDK_GRPC_PORT, SDK_HTTP_PORT = 9357, 9358

problems = []


def check(ok, message):
    if not ok:
        problems.append(message)


def dockerfile(path):
    """The instructions of a Dockerfile: {INSTRUCTION: [argument text, ...]}."""
    text = re.sub(r"\\\n", " ", path.read_text())
    instructions = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            instructions.setdefault(word.upper(), []).append(rest.strip())
    return instructions


def flags_of(args):
    """{"--flag": value or None} of an argument list; repeats are reported."""
    flags = {}
    for i, arg in enumerate(args):
        if not arg.startswith("--"):
            continue
        name, eq, value = arg.partition("=")
        if not eq:
            following = args[i + 1] if i + 1 < len(args) else None
            value = following if following is not None and not following.startswith("--") else None
        check(name not in flags, f"{name} is given twice to arbor serve (it refuses that)")
        flags[name] = value
    return flags


def port(addr):
    return int(str(addr).rsplit(":", 1)[1])


def server_help(binary):
    """`arbor serve --help`: the flags it lists, and a function giving a flag's default."""
    text = subprocess.run([binary, "serve", "--help"], check=True, capture_output=True, text=True).stdout
    known = set(re.findall(r"^\s+(?:-\w, )?(--[a-z0-9-]+)", text, re.MULTILINE))
    check(known, "no flags found in `arbor serve --help`")

    def default(flag):
        found = re.search(rf"^\s+{flag} .*\[default: ([^\]]+)\]", text, re.MULTILINE)
        return found.group(1) if found else None

    return known, default


def manifests():
    """Every YAML document in deploy/, by kind."""
    docs = {}
    for path in sorted(HERE.glob("*.y*ml")):
        try:
            for doc in yaml.safe_load_all(path.read_text()):
                if doc:
                    docs[doc.get("kind")] = doc
        except yaml.YAMLError as e:
            problems.append(f"{path.name} does not parse: {e}")
    return docs


def check_image(known):
    """Checks the Dockerfile; returns the flags its ENTRYPOINT gives and the two ports."""
    docker = dockerfile(HERE / "Dockerfile")
    entrypoint = json.loads(docker["ENTRYPOINT"][-1])
    check(entrypoint[:2] == ["arbor", "serve"], "the image's ENTRYPOINT is not `arbor serve ...`")
    flags = flags_of(entrypoint[2:])
    game, metrics = port(flags.get("--listen")), port(flags.get("--metrics"))
    exposed = set(" ".join(docker.get("EXPOSE", [])).split())
    check(f"{game}/udp" in exposed, f"the Dockerfile listens on {game} but does not EXPOSE {game}/udp")
    check(f"{metrics}/tcp" in exposed, f"--metrics uses {metrics}; the Dockerfile does not EXPOSE {metrics}/tcp")
    check(docker.get("STOPSIGNAL") == ["SIGTERM"], "the image's STOPSIGNAL is not SIGTERM (the drain's)")
    for name in flags_of(json.loads(docker["CMD"][-1])):
        check(name in known, f"the Dockerfile's CMD passes {name}, which `arbor serve --help` does not list")
    return flags, game, metrics


def check_fleet(fleet, known, default, image_flags, game_port, metrics_port):
    """Checks the Fleet against the image and the flags; returns every flag the server gets."""
    server = fleet["spec"]["template"]["spec"]
    pod = server["template"]["spec"]
    container = pod["containers"][0]
    args = container.get("args", [])
    fleet_flags = flags_of(args)
    for name in image_flags.keys() & fleet_flags.keys():
        problems.append(f"fleet.yaml passes {name}, which the image's ENTRYPOINT passes already")
    given = {**image_flags, **fleet_flags}
    for name in given:
        check(name in known, f"{name} is passed to the server, but `arbor serve --help` does not list it")
    defined = {e["name"] for e in container.get("env", [])}
    for var in re.findall(r"\$\((\w+)\)", " ".join(args)):
        check(var in defined, f"fleet.yaml's args use $({var}), which the container's env does not define")
    mounts = [m["mountPath"].rstrip("/") + "/" for m in container.get("volumeMounts", [])]
    for name in ("--key", "--data"):
        path = given.get(name)
        check(path is None or any(path.startswith(m) for m in mounts), f"{name} {path} is on no mounted volume")

    game = [p for p in server["ports"] if p.get("name") == "default"]
    check(len(game) == 1, "fleet.yaml has no game port named `default`")
    for p in game:
        check(p.get("containerPort") == game_port, f"fleet.yaml's game port is not --listen's {game_port}")
        check(p.get("protocol") == "UDP", "fleet.yaml's game port is not UDP")
    probes = (("startupProbe", "/healthz"), ("livenessProbe", "/healthz"), ("readinessProbe", "/readyz"))
    for probe, path in probes:
        get = container.get(probe, {}).get("httpGet", {})
        check(
            get.get("port") == metrics_port and get.get("path") == path,
            f"the {probe} is not GET {path} on the metrics port {metrics_port}",
        )
    annotations = server["template"].get("metadata", {}).get("annotations", {})
    check(
        annotations.get("prometheus.io/port") == str(metrics_port),
        f"the pod's prometheus.io/port annotation is not the metrics port {metrics_port}",
    )

    grace = float(given.get("--grace") or default("--grace"))
    check(
        pod.get("terminationGracePeriodSeconds", 30) > grace,
        f"terminationGracePeriodSeconds is not above --grace {grace:g}",
    )
    max_clients = int(given.get("--max-clients") or default("--max-clients"))
    capacity = server.get("lists", {}).get("players", {}).get("capacity", 0)
    check(capacity >= max_clients, f"the players list holds {capacity}, fewer than --max-clients {max_clients}")
    health = server.get("health", {})
    check(
        not health.get("disabled") and health.get("periodSeconds", 5) > HEALTH_PING_SECONDS,
        f"the health period must be above the server's {HEALTH_PING_SECONDS} s between pings",
    )
    sdk = server.get("sdkServer", {})
    check(
        (sdk.get("grpcPort"), sdk.get("httpPort")) == (SDK_GRPC_PORT, SDK_HTTP_PORT),
        f"sdkServer's ports are not Agones' defaults {SDK_GRPC_PORT} and {SDK_HTTP_PORT}",
    )
    return given


def check_autoscaler(autoscaler, fleet):
    spec = autoscaler["spec"]
    check(spec.get("fleetName") == fleet["metadata"]["name"], "the FleetAutoscaler names another fleet")
    buffer = spec["policy"].get("buffer", {})
    check(
        buffer.get("maxReplicas", 0) >= buffer.get("minReplicas", 0) >= buffer.get("bufferSize", 0) > 0,
        "the autoscaler needs maxReplicas >= minReplicas >= bufferSize > 0",
    )


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2])
    known, default = server_help(sys.argv[1])
    docs = manifests()
    fleet, autoscaler = docs.get("Fleet"), docs.get("FleetAutoscaler")
    if not fleet or not autoscaler:
        sys.exit("deploy/ needs a Fleet and a FleetAutoscaler")
    image_flags, game_port, metrics_port = check_image(known)
    given = check_fleet(fleet, known, default, image_flags, game_port, metrics_port)
    check_autoscaler(autoscaler, fleet)
    for line in problems:
        print(f"deploy/check.py: {line}")
    if problems:
        sys.exit(1)
    flags = ", ".join(sorted(given))
    print(f"deploy/: consistent (flags {flags}; game port {game_port}/udp, metrics {metrics_port}/tcp)")


if __name__ == "__main__":
    main()
