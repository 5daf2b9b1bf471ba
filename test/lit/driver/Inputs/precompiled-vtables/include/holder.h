// A class template whose virtual member does not compile for int, and an
// inline function that uses the vtable of Holder<int>: every parse that
// defines that vtable fails inside this header, as a compiler's must.
#pragma once

template <class T> struct Holder {
  virtual ~Holder() = default;
  virtual int get() { return T::value; }
};

inline int holderInHeader() {
  Holder<int> Made;
  return 0;
}
