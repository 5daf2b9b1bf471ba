void broken(torch::Device device) {
  auto x = torch::randn({4}).to(device;
  auto y = undeclared_function(x) + torch::ones({4});
  for (auto &b : nothing) { y += b.data; }
  torch::Tensor z = x * 
}
