// The collector's launches (collector.h): each <<<...>>> becomes a call of the runtime's launcher
// (ws_program.h), and every kernel the unit defines goes into its table by address, which names
// a launch made through a pointer and gives its kernel's static shared memory.
#include "collector.h"

namespace ws::rewrite_internal {

namespace {

bool NameableArgument(const TemplateArgument& a);

// Can `t` be written at the end of the translation unit, at namespace scope? A built-in type, a
// named class or enumeration declared in a named namespace (or in such a class), and pointers,
// references, arrays and template specializations of those; not a class local to a function.
bool NameableType(QualType t) {
  t = t.getCanonicalType();
  for (;;) {
    if (const auto* p = t->getAs<PointerType>()) {
      t = p->getPointeeType().getCanonicalType();
    } else if (const auto* r = t->getAs<ReferenceType>()) {
      t = r->getPointeeType().getCanonicalType();
    } else if (const auto* a = dyn_cast<ArrayType>(t.getTypePtr())) {
      t = a->getElementType().getCanonicalType();
    } else {
      break;
    }
  }
  if (t->isBuiltinType()) return true;
  const TagDecl* tag = t->getAsTagDecl();
  if (tag == nullptr || tag->getIdentifier() == nullptr) return false;
  for (const DeclContext* dc = tag->getDeclContext(); !dc->isTranslationUnit();
       dc = dc->getParent()) {
    if (const auto* ns = dyn_cast<NamespaceDecl>(dc)) {
      if (ns->isAnonymousNamespace()) return false;
    } else if (const auto* r = dyn_cast<CXXRecordDecl>(dc)) {
      if (!NameableType(QualType(r->getTypeForDecl(), 0))) return false;
    } else if (!isa<LinkageSpecDecl>(dc)) {
      return false;  // a function's own class
    }
  }
  if (const auto* spec = dyn_cast<ClassTemplateSpecializationDecl>(tag)) {
    for (const TemplateArgument& a : spec->getTemplateArgs().asArray())
      if (!NameableArgument(a)) return false;
  }
  return true;
}

bool NameableArgument(const TemplateArgument& a) {
  switch (a.getKind()) {
    case TemplateArgument::Type:
      return NameableType(a.getAsType());
    case TemplateArgument::Integral:  // printed as a literal: 64, 64U, true, 'a'
      return a.getIntegralType()->isBuiltinType();
    case TemplateArgument::Pack:
      for (const TemplateArgument& p : a.pack_elements())
        if (!NameableArgument(p)) return false;
      return true;
    default:
      return false;
  }
}

}  // namespace

// A kernel's __cluster_dims__(x, y, z) (the shim's annotation, ws_program.h), packed as the
// kernels' table takes it: x | y << 8 | z << 16, 0 where it has none (or a dimension past 255).
std::uint32_t Collector::ClusterDims(const FunctionDecl* f) const {
  for (const auto* a : f->specific_attrs<AnnotateAttr>()) {
    if (a->getAnnotation() != "ws_cluster_dims") continue;
    std::uint32_t dims[3] = {1, 1, 1}, k = 0;
    for (const Expr* e : a->args()) {
      Expr::EvalResult r;
      if (k == 3 || !e->EvaluateAsInt(r, ctx_)) return 0;
      const llvm::APSInt& v = r.Val.getInt();
      if (v < 1 || v > 255) return 0;
      dims[k++] = static_cast<std::uint32_t>(v.getExtValue());
    }
    return dims[0] | dims[1] << 8 | dims[2] << 16;
  }
  return 0;
}

void Collector::AddToKernelTable(const FunctionDecl* f) {
  if (!f->doesThisDeclarationHaveABody() || f->isDependentContext() ||
      !f->getDeclContext()->getRedeclContext()->isFileContext() || f->isInAnonymousNamespace())
    return;
  const FunctionTemplateSpecializationInfo* spec = f->getTemplateSpecializationInfo();
  if (spec == nullptr && f->isTemplated()) return;
  PrintingPolicy policy = ctx_.getPrintingPolicy();
  policy.SuppressTagKeyword = true;
  std::string q;
  llvm::raw_string_ostream qos(q);
  if (spec != nullptr) {
    // A template kernel's specialization, by its arguments: `&kern::scale<float, 64>`.
    for (const TemplateArgument& a : spec->TemplateArguments->asArray())
      if (!NameableArgument(a)) return;
    f->getNameForDiagnostic(qos, policy, /*Qualified=*/true);
  } else {
    f->printQualifiedName(qos);
  }
  qos.flush();
  std::string address = "&" + q;
  if (Overloaded(f))
    address =
        "static_cast<" + ctx_.getPointerType(f->getType()).getAsString(policy) + ">(&" + q + ")";
  if (std::find(out_->kernel_table.begin(), out_->kernel_table.end(), address) !=
      out_->kernel_table.end())
    return;
  out_->kernel_table.push_back(address);
  kernel_table_decls_.push_back(f);
  out_->kernel_table_names.push_back(q);
  out_->kernel_table_shared.push_back(StaticShared(f));
  out_->kernel_table_cluster.push_back(ClusterDims(f));
}

bool Collector::NamesOneSpecialization(const FunctionDecl* kernel, const Expr* callee) const {
  const auto* ref = dyn_cast<DeclRefExpr>(callee->IgnoreParenImpCasts());
  const FunctionTemplateDecl* primary = kernel->getPrimaryTemplate();
  if (ref == nullptr || primary == nullptr || !ref->hasExplicitTemplateArgs()) return false;
  // Every argument written: one left out may be deduced from the call, not from the name.
  const TemplateParameterList* params = primary->getTemplateParameters();
  if (params->hasParameterPack() || ref->getNumTemplateArgs() != params->size()) return false;
  return !Overloaded(kernel);
}

bool Collector::TraverseLambdaExpr(LambdaExpr* e) {
  if (!Base::TraverseLambdaExpr(e)) return false;
  const FunctionTemplateDecl* t = e->getCallOperator()->getDescribedFunctionTemplate();
  if (t == nullptr || in_dependent_) return true;
  const bool saved_dependent = in_dependent_, saved_instantiation = in_instantiation_;
  in_dependent_ = false;
  in_instantiation_ = true;
  bool r = true;
  for (FunctionDecl* spec : t->specializations()) {
    if (r && spec->doesThisDeclarationHaveABody()) r = TraverseStmt(spec->getBody());
  }
  in_dependent_ = saved_dependent;
  in_instantiation_ = saved_instantiation;
  return r;
}

void Collector::LaunchAsWritten(const CharSourceRange& callee, unsigned open, unsigned close,
                                std::uint32_t line, const FunctionDecl* kernel) {
  const std::string as_written = Lexer::getSourceText(callee, sm_, ctx_.getLangOpts()).str();
  if (kernel != nullptr) via_launches_.push_back({edits_.size(), kernel, as_written});
  edits_.push_back({Offset(callee.getBegin()), Offset(callee.getEnd()),
                    "::ws::prog::LaunchVia(\"" + CString(as_written) + "\", " +
                        std::to_string(line) + "u, [&](auto... ws_a) { WS_KERNEL_CALL(ws_a, " +
                        as_written + "); }",
                    2, 0});
  edits_.push_back({open, open + 3, ", ::ws::prog::Config(", 2, 0});
  edits_.push_back({close, close + 3, ")).Run", 2, 0});
}

void Collector::FinishLaunches() {
  for (const PendingLaunch& p : pending_launches_) {
    if (launch_offsets_.insert(p.open).second) LaunchAsWritten(p.callee, p.open, p.close, p.line);
  }
}

bool Collector::VisitCUDAKernelCallExpr(CUDAKernelCallExpr* e) {
  if (in_device_) {  // the emulator's launch is the host's: from a GPU thread it would crash
    Error(e->getBeginLoc(),
          "a kernel launched from device code (dynamic parallelism) is not supported (yet)");
    return true;
  }
  const CallExpr* config = e->getConfig();
  const CharSourceRange callee = FileRange(e->getCallee()->getSourceRange());
  // A launch written out in a macro's argument (cuda-samples' checkKernelErrors((k<<<g,
  // b>>>(...)))) is edited where it is spelled; one the macro's own text writes is not.
  auto spelled = [&](SourceLocation l) {
    return l.isMacroID() && sm_.isMacroArgExpansion(l) ? sm_.getSpellingLoc(l) : l;
  };
  const SourceLocation config_begin =
      config != nullptr ? spelled(config->getBeginLoc()) : SourceLocation();
  const SourceLocation config_close =
      config != nullptr ? spelled(config->getRParenLoc()) : SourceLocation();
  const bool written_out =
      config != nullptr && callee.isValid() && config_begin.isFileID() && config_close.isFileID();
  const std::uint32_t line = sm_.getSpellingLineNumber(e->getBeginLoc());
  if (in_dependent_ || e->isInstantiationDependent()) {
    // The template's own text: its instantiations say which kernel each launches.
    if (written_out)
      pending_launches_.push_back({callee, Offset(config_begin), Offset(config_close), line});
    return true;
  }
  const FunctionDecl* kernel = e->getDirectCallee();
  if (!written_out) {
    Error(e->getBeginLoc(),
          "a kernel launch written by a macro is not supported (yet): write the <<<...>>> "
          "launch out for Warpscope to run it");
    return true;
  }
  const unsigned open = Offset(config_begin);
  const unsigned close = Offset(config_close);
  if (!launch_offsets_.insert(open).second) return true;
  const std::string as_written = Lexer::getSourceText(callee, sm_, ctx_.getLangOpts()).str();
  bool defaults = false;
  for (unsigned k = 0; k < e->getNumArgs(); ++k)
    defaults = defaults || isa<CXXDefaultArgExpr>(e->getArg(k));
  // How the launch is written, in one text for every instantiation of a function template it is
  // in: a kernel named by itself passes its static shared memory as a number (it is the same in
  // every instantiation); one reached through a pointer, or a template's specialization named by
  // all of its arguments (`scale<T, 64>`, another in each instantiation), is looked up by address
  // in the kernels' table when it runs (name and static shared memory); any other inside a
  // function template (arguments deduced, an overload) is called as written from a lambda, as
  // overloads and deduction resolve per call.
  enum class Form { kNamed, kByAddress, kAsWritten } form = Form::kNamed;
  if (kernel == nullptr) {
    form = Form::kByAddress;
  } else if (in_instantiation_ &&
             (kernel->getTemplateSpecializationInfo() != nullptr || Overloaded(kernel))) {
    form = NamesOneSpecialization(kernel, e->getCallee()) && !defaults ? Form::kByAddress
                                                                       : Form::kAsWritten;
  }
  if (form == Form::kAsWritten) {
    LaunchAsWritten(callee, open, close, line, kernel);
  } else if (form == Form::kByAddress) {
    edits_.push_back(
        {Offset(callee.getBegin()), Offset(callee.getBegin()),
         "::ws::prog::LaunchAt(\"" + CString(as_written) + "\", " + std::to_string(line) + "u, ", 1,
         0});
    edits_.push_back({open, open + 3, ", ::ws::prog::Config(", 2, 0});
    edits_.push_back({close, close + 3, ")).Run", 2, 0});
  }
  if (form != Form::kNamed) {
    out_->launches.push_back({as_written, line, DisplayName(sm_.getFileID(callee.getBegin()))});
    return true;
  }
  std::string name;
  llvm::raw_string_ostream os(name);
  kernel->getNameForDiagnostic(os, ctx_.getPrintingPolicy(), false);
  os.flush();
  edits_.push_back({Offset(callee.getBegin()), Offset(callee.getBegin()),
                    "::ws::prog::Launch(\"" + CString(name) + "\", " + std::to_string(line) +
                        "u, " + std::to_string(StaticShared(kernel)) + "u, ",
                    1, 0});
  // The kernel's address must name one function: a template kernel whose arguments were
  // deduced (`stride<<<g, b>>>(d_a, s)`) by its specialization, and a kernel that shares its
  // name with a host function (an overload) cast to its own type.
  const auto* ref = dyn_cast<DeclRefExpr>(e->getCallee()->IgnoreParenImpCasts());
  if (ref != nullptr) {
    std::string written = as_written;
    if (kernel->getTemplateSpecializationInfo() != nullptr && !ref->hasExplicitTemplateArgs()) {
      written.clear();
      llvm::raw_string_ostream fos(written);
      kernel->getNameForDiagnostic(fos, ctx_.getPrintingPolicy(), true);
      fos.flush();
    }
    if (Overloaded(kernel)) {
      PrintingPolicy policy = ctx_.getPrintingPolicy();
      policy.SuppressTagKeyword = true;
      written = "static_cast<" + ctx_.getPointerType(kernel->getType()).getAsString(policy) + ">(" +
                written + ")";
    }
    if (written != as_written)
      edits_.push_back({Offset(callee.getBegin()), Offset(callee.getEnd()), written, 2, 0});
  }
  edits_.push_back({open, open + 3, ", ::ws::prog::Config(", 2, 0});
  edits_.push_back({close, close + 3, ")).Run", 2, 0});
  // Arguments left to their defaults (`int* partial_sums = NULL`) are written out: the
  // launcher passes every parameter.
  std::string written_defaults;
  for (unsigned k = 0; k < e->getNumArgs(); ++k) {
    const auto* d = dyn_cast<CXXDefaultArgExpr>(e->getArg(k));
    if (d == nullptr) continue;
    const CharSourceRange dr = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(d->getParam()->getDefaultArgRange()), sm_,
        ctx_.getLangOpts());
    if (dr.isInvalid()) {
      Error(e->getBeginLoc(),
            "a kernel's default argument written by a macro is not "
            "supported (yet): pass it in the launch");
      return true;
    }
    written_defaults +=
        (k == 0 ? "" : ", ") + Lexer::getSourceText(dr, sm_, ctx_.getLangOpts()).str();
  }
  if (!written_defaults.empty() && spelled(e->getRParenLoc()).isFileID()) {
    const unsigned rp = Offset(spelled(e->getRParenLoc()));
    edits_.push_back({rp, rp, written_defaults, 0, 0});
  }
  out_->launches.push_back({name, line, DisplayName(sm_.getFileID(callee.getBegin()))});
  return true;
}

}  // namespace ws::rewrite_internal
