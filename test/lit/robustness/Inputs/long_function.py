"""Writes one very long training function: N branches and a loop with N/10
branches, before a device mix on its last line. Usage: long_function.py N"""
import sys

n = int(sys.argv[1])
print("#include <torch/torch.h>")
print("void longFunction(torch::Device device, std::vector<bool> flags) {")
print("  auto x = torch::ones({3}, device);")
print("  auto h = torch::ones({3});")
for i in range(n):
    print(f"  if (flags[{i}]) x = x * 2; else x = x + 1;")
print("  for (int step = 0; step < 100; ++step) {")
for i in range(n // 10):
    print(f"    if (flags[{i}]) h = h * 2; else x = x.to(device);")
print("  }")
print("  auto mixed = x * h; // LAST")
print("}")
