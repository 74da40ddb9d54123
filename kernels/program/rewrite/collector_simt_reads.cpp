// Which pointer parameters a kernel only reads through (collector_simt.h: OnlyReadParams): the
// race check needs no log of the loads of a buffer that no store of the launch reaches
// (docs/ENGINE.md, "A buffer only read"). The rule looks at each use of the parameter and
// follows its value up the expression: a use is a read where the pointer, moved by an integer or
// cast to another pointer, is indexed or dereferenced and the element is read as a value (or the
// pointer is only compared or tested). Anything else (an assignment to the pointer or through it,
// `&p[i]` handed on, the pointer passed to a call but __ldg, kept in a variable, bound to a
// reference) makes it a parameter written through. The rule needs not be complete: a store that
// reaches an excused buffer after all (through another pointer) is found as the launch runs and
// reported as reads not checked (HazardReport::unlogged_reads).
#include <clang/AST/ParentMap.h>

#include "collector_simt.h"

namespace ws::rewrite_internal {

namespace {

bool IsLoadCall(const CallExpr* c) {
  const FunctionDecl* f = c->getDirectCallee();
  if (f == nullptr || f->getIdentifier() == nullptr) return false;
  const llvm::StringRef n = f->getName();
  return n == "__ldg" || n == "__ldcg" || n == "__ldca" || n == "__ldcs" || n == "__ldlu" ||
         n == "__ldcv";
}

// Whether the use `d` of a pointer parameter only reads through it.
bool ReadUse(const ParentMap& pm, const DeclRefExpr* d) {
  enum class What { kVariable, kPointer, kElement } what = What::kVariable;
  const Stmt* cur = d;
  for (;;) {
    const Stmt* parent = pm.getParent(cur);
    if (parent == nullptr) return false;
    if (isa<ParenExpr>(parent)) {
      cur = parent;
      continue;
    }
    const auto* e = dyn_cast<Expr>(parent);
    if (e == nullptr) return false;  // a statement of its own (`p;`, `return p;`): not a read
    const bool pointer = e->getType()->isPointerType();
    switch (what) {
      case What::kVariable: {  // the parameter itself: only its value read
        const auto* c = dyn_cast<ImplicitCastExpr>(e);
        if (c == nullptr || c->getCastKind() != CK_LValueToRValue) return false;
        what = What::kPointer;
        break;
      }
      case What::kPointer:  // the pointer's value
        if (const auto* c = dyn_cast<CastExpr>(e)) {
          if (!pointer)  // a test (to bool) is a read; to an integer it could come back
            return c->getCastKind() == CK_PointerToBoolean;
        } else if (const auto* a = dyn_cast<ArraySubscriptExpr>(e)) {
          if (a->getBase()->IgnoreParens() != cur) return false;
          what = What::kElement;
        } else if (const auto* b = dyn_cast<BinaryOperator>(e)) {
          if (b->isComparisonOp() || (b->getOpcode() == BO_Sub && !pointer)) return true;
          if (b->getOpcode() != BO_Add && b->getOpcode() != BO_Sub) return false;
        } else if (const auto* u = dyn_cast<UnaryOperator>(e)) {
          if (u->getOpcode() == UO_LNot) return true;
          if (u->getOpcode() != UO_Deref) return false;
          what = What::kElement;
        } else if (const auto* c = dyn_cast<ConditionalOperator>(e)) {
          if (c->getCond()->IgnoreParens() == cur) return true;
        } else if (const auto* m = dyn_cast<MemberExpr>(e)) {  // p->x
          if (!m->isArrow() || !isa<FieldDecl>(m->getMemberDecl())) return false;
          what = What::kElement;
        } else if (const auto* call = dyn_cast<CallExpr>(e)) {
          return IsLoadCall(call);
        } else {
          return false;
        }
        break;
      case What::kElement:  // the element (an lvalue): read as a value, or a part of it
        if (const auto* c = dyn_cast<ImplicitCastExpr>(e)) {
          if (c->getCastKind() == CK_LValueToRValue) return true;
          if (c->getCastKind() == CK_ArrayToPointerDecay)
            what = What::kPointer;
          else if (c->getCastKind() != CK_NoOp)
            return false;
        } else if (const auto* m = dyn_cast<MemberExpr>(e)) {
          if (m->isArrow() || !isa<FieldDecl>(m->getMemberDecl())) return false;
        } else if (const auto* u = dyn_cast<UnaryOperator>(e)) {
          if (u->getOpcode() != UO_AddrOf) return false;
          what = What::kPointer;
        } else if (const auto* k = dyn_cast<CXXConstructExpr>(e)) {  // a struct copied out
          return k->getConstructor()->isCopyOrMoveConstructor() && k->getConstructor()
                                                                       ->getParamDecl(0)
                                                                       ->getType()
                                                                       .getNonReferenceType()
                                                                       .isConstQualified();
        } else {
          return false;
        }
        break;
    }
    cur = parent;
  }
}

// Whether a value of type `t` holds a pointer (a struct's member, an array's element).
bool HoldsPointer(QualType t) {
  t = t.getCanonicalType();
  if (t->isDependentType() || t->isPointerType() || t->isReferenceType() ||
      t->isMemberPointerType())
    return true;
  if (const ArrayType* a = t->getAsArrayTypeUnsafe()) return HoldsPointer(a->getElementType());
  if (const auto* r = t->getAsCXXRecordDecl()) {
    if (!r->hasDefinition()) return true;
    for (const CXXBaseSpecifier& b : r->bases())
      if (HoldsPointer(b.getType())) return true;
    for (const FieldDecl* f : r->fields())
      if (HoldsPointer(f->getType())) return true;
  } else if (t->isRecordType()) {
    for (const FieldDecl* f : t->getAsRecordDecl()->fields())
      if (HoldsPointer(f->getType())) return true;
  }
  return false;
}

// Whether every pointer kernel `f`'s body can store through comes from a pointer parameter: no
// parameter holds a pointer but as a pointer to pointer-free elements, and the body names no
// variable of the program that holds one (a __device__ pointer), reads none from memory (a row
// of a float** cast from a float*) and makes none of an integer. Else a store could reach any
// buffer, an excused one too.
bool PointersFromParams(const FunctionDecl* f) {
  for (const ParmVarDecl* p : f->parameters()) {
    const QualType t = p->getType();
    if (t->isPointerType() ? HoldsPointer(t->getPointeeType()) : HoldsPointer(t)) return false;
  }
  std::vector<const Stmt*> todo = {f->getBody()};
  while (!todo.empty()) {
    const Stmt* s = todo.back();
    todo.pop_back();
    if (s == nullptr) continue;
    if (const auto* d = dyn_cast<DeclRefExpr>(s)) {
      const auto* v = dyn_cast<VarDecl>(d->getDecl());
      if (v != nullptr && v->hasGlobalStorage() && HoldsPointer(v->getType())) return false;
    } else if (const auto* c = dyn_cast<CastExpr>(s)) {
      if (c->getCastKind() == CK_IntegralToPointer) return false;
      // A value that holds a pointer read from anywhere but a variable of the kernel's own.
      if (c->getCastKind() == CK_LValueToRValue && HoldsPointer(c->getType()) &&
          !isa<DeclRefExpr>(c->getSubExpr()->IgnoreParens()))
        return false;
    } else if (const auto* k = dyn_cast<CXXConstructExpr>(s)) {
      if (HoldsPointer(k->getType()) && k->getNumArgs() > 0 &&
          !isa<DeclRefExpr>(k->getArg(0)->IgnoreParenImpCasts()))
        return false;
    }
    for (const Stmt* c : s->children()) todo.push_back(c);
  }
  return true;
}

// Whether every use of parameter `p` in `body` reads through it (and none is in a lambda).
bool OnlyReadIn(const Stmt* body, const ParmVarDecl* p) {
  ParentMap pm(const_cast<Stmt*>(body));
  std::vector<const Stmt*> todo = {body};
  while (!todo.empty()) {
    const Stmt* s = todo.back();
    todo.pop_back();
    if (s == nullptr) continue;
    if (isa<LambdaExpr>(s)) return false;
    if (const auto* d = dyn_cast<DeclRefExpr>(s); d != nullptr && d->getDecl() == p)
      if (!ReadUse(pm, d)) return false;
    for (const Stmt* c : s->children()) todo.push_back(c);
  }
  return true;
}

}  // namespace

std::vector<bool> OnlyReadParams(const FunctionDecl* f) {
  std::vector<bool> only(f->getNumParams(), false);
  std::vector<const FunctionDecl*> bodies;  // a template's instantiations, else the kernel
  if (const FunctionTemplateDecl* t = f->getDescribedFunctionTemplate()) {
    for (const FunctionDecl* s : t->specializations()) {
      if (!s->hasBody()) continue;
      if (s->getNumParams() != f->getNumParams()) return only;  // (a pack: parameters apart)
      bodies.push_back(s);
    }
  } else if (f->hasBody()) {
    bodies.push_back(f);
  }
  if (bodies.empty()) return only;
  for (const FunctionDecl* b : bodies)
    if (!PointersFromParams(b)) return only;
  for (unsigned i = 0; i < f->getNumParams(); ++i) {
    bool read = f->getParamDecl(i)->getType()->isPointerType();
    for (const FunctionDecl* b : bodies) {
      const ParmVarDecl* p = b->getParamDecl(i);
      read = read && p->getType()->isPointerType() && OnlyReadIn(b->getBody(), p);
    }
    only[i] = read;
  }
  return only;
}

}  // namespace ws::rewrite_internal
