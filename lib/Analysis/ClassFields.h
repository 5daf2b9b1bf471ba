//===--- ClassFields.h - What a plain class keeps in its fields -*- C++ -*-===//
//
// Inside the methods of a class of the user's that is neither a Module nor a
// class with its own `to(Device)` (a trainer holding its class weights, an
// agent holding its storage), a tensor or module field holds what the
// class's own code ever stores in it: the join, over every constructor and
// every method, of what each leaves there. It is a fact of the class, true
// at the start of every method, wherever the object came from.
//
// It is known only where every store can be seen: the field is private and
// the class has no friends, every constructor and non-const method is
// defined in this translation unit, no lambda in them captures `this` (its
// stores are not the method's), and every stored value is one that any
// method can name (a device, the host, or the class's own device member).
// The same holds for the tensors of an object the class holds by value (an
// agent's replay memory), changed only through that private field.
// A value that depends on a method's arguments, on the field's own earlier
// value, or on code the summary cannot see makes the field unknown.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_ANALYSIS_CLASSFIELDS_H
#define TORCHTIDY_ANALYSIS_CLASSFIELDS_H

#include "Analysis/Placement.h"

#include "clang/AST/DeclCXX.h"

#include <optional>

namespace torchtidy {

/// A class of the user's whose fields are facts of its objects: neither a
/// Module (whose fields are where the module is), nor a class that moves its
/// own tensors with `to(Device)` (DeviceOwners.h), nor a lambda, nor
/// LibTorch's or the standard library's.
bool isPlainUserClass(const clang::CXXRecordDecl *Class);

/// The plain class of the user's an object of Type is, or that a
/// `std::unique_ptr` of Type owns (not a pointer or a reference to one, nor
/// a module handle); null for any other type.
const clang::CXXRecordDecl *plainUserClassOf(clang::QualType Type);

/// What Field holds at the start of every method of its class, as above;
/// none where that is not known. The analysis asks it through UnitAnalysis,
/// once per field and unit.
std::optional<AbstractValue> computeClassFieldValue(const clang::FieldDecl *Field);

/// The same for an object the class holds by value (an agent's
/// `ReplayMemory memory_`): what that object holds in its own tensor field
/// Field at the start of every method of the outer class, joined over what
/// every constructor and method of the outer class leaves there (by
/// building the object, or through its methods' summaries). Object must be
/// private; the rules above apply to the outer class.
std::optional<AbstractValue>
computeMemberObjectFieldValue(const clang::FieldDecl *Object,
                              const clang::FieldDecl *Field);

} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_CLASSFIELDS_H
