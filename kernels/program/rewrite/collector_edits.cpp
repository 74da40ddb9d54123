// The collector's edits (collector.h): accesses and the sites they become, loops instrumented,
// declarations commented out, and the edits split by file.
#include "collector.h"
#include "warpscope/trace/ws_cuda_keys.h"

namespace ws::rewrite_internal {

void Collector::Finish() {
  FinishLaunches();
  FinishFlops();
  std::vector<Access> list;
  for (auto& [key, a] : accesses_) {
    // The thread's own arrays only where indexed at run time: the rest live in registers.
    if (!a.local || local_run_time_[a.local_decl]) list.push_back(a);
    if (a.local && local_run_time_[a.local_decl]) out_->local_arrays = true;
  }
  std::sort(list.begin(), list.end(), [](const Access& a, const Access& b) {
    return std::tie(a.begin, a.end, a.access) < std::tie(b.begin, b.end, b.access);
  });
  std::uint32_t n = rq_.site_base;
  for (const Access& a : list) {
    ++n;
    if (n > 0xffffu) {
      errors_.push_back({a.line, a.column, true,
                         "the program has more than 65535 memory accesses written in its "
                         "kernels, over Warpscope's limit of 65535 sites",
                         a.file == rq_.file_name ? std::string() : a.file});
      break;
    }
    // A lesson's warp functions key a site as its recording API does: (file tag, line).
    const std::string place =
        std::to_string(
            rq_.lesson_places
                ? MakePlace(FileTag(std::filesystem::path(a.file).filename().c_str()), a.line)
                : ProgramPlace(n, a.line)) +
        "u";
    const char* fn = a.access == ProgramAccess::kLoad        ? "Ld"
                     : a.access == ProgramAccess::kStore     ? "St"
                     : a.access == ProgramAccess::kLoadStore ? "LdSt"
                                                             : "At";
    if (a.call) {
      edits_.push_back({a.rparen, a.rparen, ", " + place, 0, a.end - a.begin});
    } else if (a.pointer) {
      const std::string head = a.access == ProgramAccess::kAtomic ? "At" : fn;
      edits_.push_back({a.begin, a.begin, "::ws::prog::" + head + "((", 1, a.end - a.begin, 2});
      edits_.push_back({a.end, a.end, "), " + place + ")", 0, a.end - a.begin, 2});
    } else if (a.local) {
      edits_.push_back(
          {a.begin, a.begin, std::string("(*::ws::prog::") + fn + "(&(", 1, a.end - a.begin, 2});
      edits_.push_back(
          {a.end, a.end,
           "), " + place + ", 0u, " + a.local_array + ", \"" + CString(a.local_array) + "\"))", 0,
           a.end - a.begin, 2});
    } else {
      edits_.push_back(
          {a.begin, a.begin, std::string("(*::ws::prog::") + fn + "(&(", 1, a.end - a.begin, 2});
      edits_.push_back({a.end, a.end,
                        "), " + place + (a.several ? ", ::ws::prog::kOpSeveral" : "") + "))", 0,
                        a.end - a.begin, 2});
    }
    numbered_.push_back({a, place});
    out_->sites.push_back({n, a.file, a.line, a.column, a.end_column, a.access, a.text});
  }
  EmitWarpFunctions();
}

bool Collector::IsMemory(const Expr* e) const {
  e = e->IgnoreParens();
  if (const auto* a = dyn_cast<ArraySubscriptExpr>(e)) {
    if (LocalArrayOf(e) != nullptr) return true;  // local memory, if indexed at run time
    const Expr* base = a->getBase()->IgnoreParens();
    if (const auto* c = dyn_cast<ImplicitCastExpr>(base);
        c != nullptr && c->getCastKind() == CK_ArrayToPointerDecay)
      return IsMemory(c->getSubExpr());  // an array: in memory if the array is
    return true;                         // through a pointer
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e)) return u->getOpcode() == UO_Deref;
  if (const auto* m = dyn_cast<MemberExpr>(e)) return m->isArrow() || IsMemory(m->getBase());
  if (const auto* d = dyn_cast<DeclRefExpr>(e)) {
    const auto* v = dyn_cast<VarDecl>(d->getDecl());
    if (v == nullptr || IsBuiltinVariable(v)) return false;
    if (dynamic_.count(v->getCanonicalDecl())) return true;
    if (v->hasAttr<CUDASharedAttr>() || v->hasAttr<CUDAConstantAttr>()) return true;
    if (v->hasAttr<CUDADeviceAttr>() && v->hasGlobalStorage()) return true;
    return v->getType()->isReferenceType();  // refers to memory somewhere
  }
  return false;
}

bool Collector::Overloaded(const FunctionDecl* f) {
  const DeclContext* dc = f->getDeclContext()->getRedeclContext();
  for (const NamedDecl* d : dc->lookup(f->getDeclName())) {
    const auto* other = dyn_cast<FunctionDecl>(d->getUnderlyingDecl());
    if (const auto* t = dyn_cast<FunctionTemplateDecl>(d->getUnderlyingDecl()))
      other = t->getTemplatedDecl();
    if (other == nullptr) continue;
    const FunctionDecl* mine =
        f->getPrimaryTemplate() != nullptr ? f->getPrimaryTemplate()->getTemplatedDecl() : f;
    if (other->getCanonicalDecl() != mine->getCanonicalDecl()) return true;
  }
  return false;
}

std::uint64_t Collector::StaticShared(const FunctionDecl* f) const {
  std::uint64_t total = 0;
  const Stmt* body = f->getBody();
  if (body == nullptr) return 0;
  std::vector<const Stmt*> todo = {body};
  while (!todo.empty()) {
    const Stmt* s = todo.back();
    todo.pop_back();
    if (const auto* d = dyn_cast<DeclStmt>(s)) {
      for (const Decl* x : d->decls()) {
        const auto* v = dyn_cast<VarDecl>(x);
        if (v == nullptr || !v->hasAttr<CUDASharedAttr>() || v->hasExternalStorage() ||
            v->getType()->isDependentType() || v->getType()->isIncompleteType())
          continue;
        total = (total + 15) / 16 * 16 + ctx_.getTypeSizeInChars(v->getType()).getQuantity();
      }
    }
    for (const Stmt* c : s->children()) {
      if (c != nullptr) todo.push_back(c);
    }
  }
  return total;
}

void Collector::NameAllocation(const CallExpr* e) {
  const FunctionDecl* f = e->getDirectCallee();
  if (f == nullptr || f->getIdentifier() == nullptr || e->getNumArgs() < 1) return;
  const std::string fn = f->getName().str();
  if (fn != "cudaMalloc" && fn != "cudaMallocManaged") return;
  const Expr* arg = e->getArg(0)->IgnoreParenCasts();
  const auto* addr = dyn_cast<UnaryOperator>(arg);
  if (addr == nullptr || addr->getOpcode() != UO_AddrOf) return;
  const CharSourceRange target = FileRange(addr->getSubExpr()->getSourceRange());
  const CharSourceRange call = FileRange(e->getSourceRange());
  if (target.isInvalid() || call.isInvalid()) return;
  const unsigned b = Offset(call.getBegin()), end = Offset(call.getEnd());
  if (!named_calls_.insert(b).second) return;
  std::string name = Lexer::getSourceText(target, sm_, ctx_.getLangOpts()).str();
  const std::string quoted = CString(name);
  const std::uint32_t line = sm_.getSpellingLineNumber(call.getBegin());
  edits_.push_back({b, b,
                    "(::ws::prog::NameNext(\"" + quoted + "\", " + std::to_string(line) + "u), ", 1,
                    end - b + 1});
  edits_.push_back({end, end, ")", 0, end - b + 1});
}

void Collector::InstrumentLoop(Stmt* loop, Stmt* body, bool is_do) {
  if (!Recording() || body == nullptr || in_constexpr_) return;
  const CharSourceRange r = FileRange(loop->getSourceRange());
  const CharSourceRange br = FileRange(body->getSourceRange());
  if (r.isInvalid() || br.isInvalid()) return;  // written by a macro: not instrumented
  const unsigned begin = Offset(r.getBegin());
  if (!instrumented_.insert(begin).second) return;
  // The loop's end: past its body's closing brace, or the semicolon of a one-statement body
  // (a do-while: the semicolon after its condition).
  const bool compound = isa<CompoundStmt>(body);
  SourceLocation body_end = br.getEnd();
  if (!compound) {
    const SourceLocation semi = AfterSemicolon(body->getEndLoc());
    if (semi.isInvalid()) return;
    body_end = semi;
  }
  SourceLocation loop_end = r.getEnd();
  if (is_do) {
    loop_end = AfterSemicolon(loop->getEndLoc());
    if (loop_end.isInvalid()) return;
  } else if (!compound) {
    loop_end = body_end;
  }
  const std::string name = "ws_loop_" + std::to_string(instrumented_.size());
  const unsigned end = Offset(loop_end), span = end - begin;
  edits_.push_back({begin, begin,
                    "{ ::ws::prog::Loop " + name + "(" + StaticId(r.getBegin()) + "); ", 1,
                    span + 1, 1});
  edits_.push_back({end, end, " }", 0, span + 1, 1});
  const std::string iter = "::ws::prog::Iter ws_iter(" + name + ");";
  if (compound) {
    const unsigned brace = Offset(br.getBegin()) + 1;
    edits_.push_back({brace, brace, " " + iter, 1, 0, 1});
  } else {
    const unsigned b = Offset(br.getBegin()), e = Offset(body_end);
    edits_.push_back({b, b, "{ " + iter + " ", 1, e - b + 1, 1});
    edits_.push_back({e, e, " }", 0, e - b + 1, 1});
  }
}

bool Collector::UnrollConstant(const Expr* e) const {
  e = e->IgnoreParenCasts();
  if (e->isValueDependent() || e->isTypeDependent()) return false;
  if (e->isIntegerConstantExpr(ctx_)) return true;
  if (const auto* d = dyn_cast<DeclRefExpr>(e)) {
    const auto* v = dyn_cast<VarDecl>(d->getDecl());
    return v != nullptr && counters_.count(v->getCanonicalDecl()) > 0;
  }
  if (const auto* b = dyn_cast<BinaryOperator>(e))
    return !b->isAssignmentOp() && b->getOpcode() != BO_Comma && UnrollConstant(b->getLHS()) &&
           UnrollConstant(b->getRHS());
  if (const auto* u = dyn_cast<UnaryOperator>(e))
    return (u->getOpcode() == UO_Minus || u->getOpcode() == UO_Plus || u->getOpcode() == UO_Not) &&
           UnrollConstant(u->getSubExpr());
  if (const auto* c = dyn_cast<ConditionalOperator>(e))
    return UnrollConstant(c->getCond()) && UnrollConstant(c->getTrueExpr()) &&
           UnrollConstant(c->getFalseExpr());
  return false;
}

void Collector::NoteCounter(const ForStmt* s) {
  static constexpr std::int64_t kUnrollTrips = 64;
  const auto* init = dyn_cast_or_null<DeclStmt>(s->getInit());
  if (init == nullptr || !init->isSingleDecl() || s->getCond() == nullptr || s->getInc() == nullptr)
    return;
  const auto* v = dyn_cast<VarDecl>(init->getSingleDecl());
  if (v == nullptr || !v->getType()->isIntegerType() || v->getInit() == nullptr ||
      !UnrollConstant(v->getInit()))
    return;
  const auto* cond = dyn_cast<BinaryOperator>(s->getCond()->IgnoreParenImpCasts());
  if (cond == nullptr || !cond->isComparisonOp()) return;
  const Expr* bound = RefersTo(cond->getLHS(), v)   ? cond->getRHS()
                      : RefersTo(cond->getRHS(), v) ? cond->getLHS()
                                                    : nullptr;
  if (bound == nullptr || !UnrollConstant(bound)) return;
  std::int64_t step = 0;
  const Expr* inc = s->getInc()->IgnoreParenImpCasts();
  if (const auto* u = dyn_cast<UnaryOperator>(inc)) {
    if (!u->isIncrementDecrementOp() || !RefersTo(u->getSubExpr(), v)) return;
    step = 1;
  } else if (const auto* c = dyn_cast<CompoundAssignOperator>(inc)) {
    if (!RefersTo(c->getLHS(), v) || !UnrollConstant(c->getRHS())) return;
    Expr::EvalResult r;
    step = (c->getOpcode() == BO_AddAssign || c->getOpcode() == BO_SubAssign) &&
                   c->getRHS()->EvaluateAsInt(r, ctx_)
               ? std::max<std::int64_t>(1, std::llabs(r.Val.getInt().getExtValue()))
               : 0;  // *=, >>=: few trips
  } else {
    return;
  }
  Expr::EvalResult a, b;
  if (step > 0 && v->getInit()->EvaluateAsInt(a, ctx_) && bound->EvaluateAsInt(b, ctx_) &&
      std::llabs(b.Val.getInt().getExtValue() - a.Val.getInt().getExtValue()) / step > kUnrollTrips)
    return;
  counters_.insert(v->getCanonicalDecl());
}

bool Collector::ThroughLoadedPointer(const Expr* e) {
  e = e->IgnoreParens();
  const Expr* base = nullptr;
  if (const auto* a = dyn_cast<ArraySubscriptExpr>(e)) {
    base = a->getBase();
  } else if (const auto* u = dyn_cast<UnaryOperator>(e);
             u != nullptr && u->getOpcode() == UO_Deref) {
    base = u->getSubExpr();
  }
  if (base == nullptr) return false;
  base = base->IgnoreParenImpCasts();
  if (!base->getType()->isPointerType()) return false;  // a row of a 2D array decays: not one
  if (isa<ArraySubscriptExpr>(base)) return true;
  const auto* u = dyn_cast<UnaryOperator>(base);
  return u != nullptr && u->getOpcode() == UO_Deref;
}

void Collector::AddAccess(const Expr* e, ProgramAccess kind, bool pointer) {
  const CharSourceRange r = FileRange(e->getSourceRange());
  if (r.isInvalid()) {
    const SourceLocation at = sm_.getExpansionLoc(e->getBeginLoc());
    if (IsProgramFile(sm_.getFileID(at))) Warn(at, "an access inside a macro is not recorded");
    return;
  }
  Access a;
  a.begin = Offset(r.getBegin());
  a.end = Offset(r.getEnd());
  a.access = kind;
  a.pointer = pointer;
  a.several = !pointer && ThroughLoadedPointer(e);
  std::vector<const Expr*> indices;
  const DeclRefExpr* ref = nullptr;
  if (const VarDecl* v = pointer ? nullptr : LocalArrayOf(e, &indices, &ref)) {
    const CharSourceRange rr = FileRange(ref->getSourceRange());
    const CharSourceRange vr = FileRange(v->getLocation());
    if (rr.isInvalid() || vr.isInvalid()) return;
    a.local = true;
    a.local_decl = Offset(vr.getBegin());
    a.local_array = Lexer::getSourceText(rr, sm_, ctx_.getLangOpts()).str();
    bool& run_time = local_run_time_[a.local_decl];
    for (const Expr* i : indices) run_time = run_time || !UnrollConstant(i);
  }
  a.file = DisplayName(sm_.getFileID(r.getBegin()));
  a.line = sm_.getSpellingLineNumber(r.getBegin());
  a.column = sm_.getSpellingColumnNumber(r.getBegin());
  if (sm_.getSpellingLineNumber(r.getEnd()) == a.line)
    a.end_column = sm_.getSpellingColumnNumber(r.getEnd());
  a.text = Lexer::getSourceText(r, sm_, ctx_.getLangOpts()).str();
  const auto key = std::make_tuple(a.begin, a.end, static_cast<int>(kind));
  accesses_.emplace(key, std::move(a));
}

void Collector::CommentOut(SourceRange decl, VarDecl* v, bool to_semicolon) {
  const CharSourceRange r = FileRange(decl);
  std::string elem = "char";
  if (const auto* at = dyn_cast<ArrayType>(v->getType().getTypePtr())) {
    elem = at->getElementType().getAsString(ctx_.getPrintingPolicy());
    // An array of arrays (cudaTensorCoreGemm's `extern __shared__ half shmem[][CHUNK_K * K +
    // SKEW_HALF]`) by its printed type, "half [80]": its element's source range holds the name.
    TypeSourceInfo* tsi = at->getElementType()->isArrayType() ? nullptr : v->getTypeSourceInfo();
    if (tsi != nullptr) {
      if (auto al = tsi->getTypeLoc().getAs<ArrayTypeLoc>()) {
        const CharSourceRange er = FileRange(al.getElementLoc().getSourceRange());
        if (er.isValid()) elem = Lexer::getSourceText(er, sm_, ctx_.getLangOpts()).str();
      }
    }
  }
  dynamic_[v->getCanonicalDecl()] = elem;
  if (r.isInvalid()) {
    const SourceLocation at = sm_.getExpansionLoc(decl.getBegin());
    if (IsProgramFile(sm_.getFileID(at)) && macro_errors_.insert(Offset(at)).second)
      Error(at, "extern __shared__ " + v->getName().str() +
                    " declared by a macro is not supported (yet): write the declaration out");
    return;
  }
  unsigned b = Offset(r.getBegin()), e = Offset(r.getEnd());
  if (to_semicolon) {
    const SourceLocation semi = AfterSemicolon(v->getEndLoc());
    if (semi.isValid()) e = Offset(semi);
  }
  if (!commented_.insert(b).second) return;
  edits_.push_back({b, b, "/* ", 1, e - b});
  edits_.push_back({e, e, " */", 0, e - b});
}

SourceLocation Collector::AfterSemicolon(SourceLocation end) const {
  if (!end.isFileID()) return {};
  SourceLocation at = end;
  for (int i = 0; i < 256; ++i) {
    auto t = Lexer::findNextToken(at, sm_, ctx_.getLangOpts());
    if (!t) return {};
    if (t->is(tok::semi)) return t->getEndLoc();
    at = t->getLocation();
  }
  return {};
}

std::vector<std::pair<FileID, std::vector<Edit>>> Collector::SplitEdits() const {
  std::map<FileID, std::vector<Edit>> by_file;
  for (Edit e : edits_) {
    const SourceLocation b = SourceLocation::getFromRawEncoding(e.begin);
    const FileID f = sm_.getFileID(b);
    const unsigned base = e.begin - sm_.getFileOffset(b);
    e.begin -= base;
    e.end -= base;
    by_file[f].push_back(std::move(e));
  }
  std::vector<std::pair<FileID, std::vector<Edit>>> out;
  out.emplace_back(sm_.getMainFileID(), std::move(by_file[sm_.getMainFileID()]));
  // Every program file the translation unit read, edited or not (the compile reads them from
  // where the rewritten ones are put, so that they find each other).
  std::set<std::string> seen = {MainPath().string()};
  for (unsigned i = 1; i < sm_.local_sloc_entry_size(); ++i) {
    const SrcMgr::SLocEntry& entry = sm_.getLocalSLocEntry(i);
    if (!entry.isFile()) continue;
    const FileID f = sm_.getFileID(SourceLocation::getFromRawEncoding(entry.getOffset()));
    const FileEntry* fe = sm_.getFileEntryForID(f);
    if (f == sm_.getMainFileID() || fe == nullptr || !IsProgramFile(f)) continue;
    if (!seen.insert(std::filesystem::absolute(fe->getName().str()).lexically_normal()).second)
      continue;  // included twice: its first inclusion's edits stand
    out.emplace_back(f, std::move(by_file[f]));
  }
  return out;
}

}  // namespace ws::rewrite_internal
