#!/bin/bash
# Prepare a GPU node: driver, persistence, kernel settings.
set -euo pipefail

sudo apt-get update
sudo apt-get install -y cuda-drivers
sudo nvidia-smi -pm 1
sudo sysctl -w vm.max_map_count=262144
echo "vm.max_map_count=262144" | sudo tee /etc/sysctl.d/90-gpu.conf
