// The collector's visits (collector.h): what each AST node of a device function adds, and which
// files are the program's own.
#include "collector.h"
#include "collector_simt.h"  // InNamespace

namespace ws::rewrite_internal {

bool Collector::IsProgramFile(FileID f) const {
  if (f.isInvalid()) return false;
  if (f == sm_.getMainFileID()) return true;
  if (auto it = program_files_.find(f); it != program_files_.end()) return it->second;
  bool mine = false;
  if (const FileEntry* e = sm_.getFileEntryForID(f)) {
    const std::string path = std::filesystem::absolute(e->getName().str()).lexically_normal();
    const std::string shim = std::filesystem::absolute(rq_.shim_dir).lexically_normal();
    mine = sm_.getFileCharacteristic(sm_.getLocForStartOfFile(f)) == SrcMgr::C_User &&
           path.rfind(shim + "/", 0) != 0;
  }
  program_files_[f] = mine;
  return mine;
}

bool Collector::TraverseDecl(Decl* d) {
  auto* f = dyn_cast_or_null<FunctionDecl>(d);
  if (f == nullptr) return Base::TraverseDecl(d);
  const bool device = f->hasAttr<CUDAGlobalAttr>() || WrittenDevice(f);
  if (f->isMain() && f->doesThisDeclarationHaveABody()) {
    has_main_ = true;
    if (f->getNumParams() > 0) out_->main_takes_args = true;
  }
  if (f->hasAttr<CUDAGlobalAttr>() && f->getIdentifier() != nullptr &&
      IsProgramFile(sm_.getFileID(sm_.getExpansionLoc(f->getLocation())))) {
    const std::string name = f->getName().str();
    AddToKernelTable(f);
    if (f->doesThisDeclarationHaveABody() &&
        std::find(simt_candidates_.begin(), simt_candidates_.end(), f) == simt_candidates_.end())
      simt_candidates_.push_back(f);
    if (std::find(out_->kernels.begin(), out_->kernels.end(), name) == out_->kernels.end()) {
      out_->kernels.push_back(name);
      const SourceLocation at = sm_.getExpansionLoc(f->getLocation());
      out_->kernel_files.push_back(
          {name, DisplayName(sm_.getFileID(at)), sm_.getSpellingLineNumber(at)});
    }
  }
  const bool saved_device = in_device_, saved_dependent = in_dependent_,
             saved_instantiation = in_instantiation_;
  in_device_ = device;
  in_dependent_ = f->isDependentContext();
  in_instantiation_ = f->getTemplateInstantiationPattern() != nullptr;
  const bool saved_constexpr = in_constexpr_;
  in_constexpr_ = f->isConstexpr();
  const bool r = Base::TraverseDecl(d);
  in_constexpr_ = saved_constexpr;
  in_device_ = saved_device;
  in_dependent_ = saved_dependent;
  in_instantiation_ = saved_instantiation;
  return r;
}

bool Collector::VisitCXXOperatorCallExpr(CXXOperatorCallExpr* e) {
  if (Recording()) NoteFlops(e);  // a class's arithmetic: its text is not counted as FLOPs
  if (!Recording() || e->getNumArgs() != 2) return true;
  const Expr* lhs = e->getArg(0)->IgnoreImpCasts();
  if (e->getOperator() == OO_Equal && IsMemory(lhs)) AddAccess(lhs, ProgramAccess::kStore);
  // A struct or vector assigned from memory (`out[i] = v[i]` through float4*): the copy
  // assignment takes the source by reference, so no conversion reads it: the call does.
  if (e->getOperator() == OO_Equal) {
    const Expr* rhs = e->getArg(1)->IgnoreImpCasts();
    const auto* m = dyn_cast_or_null<CXXMethodDecl>(e->getDirectCallee());
    if (m != nullptr && (m->isCopyAssignmentOperator() || m->isMoveAssignmentOperator()) &&
        IsMemory(rhs))
      AddAccess(rhs, ProgramAccess::kLoad);
  }
  return true;
}

bool Collector::VisitCallExpr(CallExpr* e) {
  if (!in_dependent_ && !in_device_) NameAllocation(e);
  if (!Recording() || isa<CUDAKernelCallExpr>(e)) return true;
  NoteFmaCall(e);
  const FunctionDecl* callee = e->getDirectCallee();
  if (IsAtomic(callee) && e->getNumArgs() >= 2)
    AddAccess(e->getArg(0)->IgnoreImpCasts(), ProgramAccess::kAtomic, /*pointer=*/true);
  bool hinted = false;
  const ProgramAccess hint = HintedAccess(callee, &hinted);
  if (hinted && e->getNumArgs() >= 1)
    AddAccess(e->getArg(0)->IgnoreImpCasts(), hint, /*pointer=*/true);
  if ((NameOf(callee) == "malloc" || NameOf(callee) == "free") &&
      callee->getDeclContext()->getRedeclContext()->isFileContext()) {
    // The device heap's: ws::prog::HeapMalloc and HeapFree (collector_heap.cpp).
    const SourceLocation at = e->getCallee()->getBeginLoc();
    if (at.isFileID() && IsProgramFile(sm_.getFileID(at)) &&
        heap_edits_.insert(Offset(at)).second) {
      out_->uses_heap = out_->uses_heap || NameOf(callee) == "malloc";
      edits_.push_back(
          {Offset(at), Offset(at) + static_cast<unsigned>(NameOf(callee).size()),
           NameOf(callee) == "malloc" ? "::ws::prog::HeapMalloc" : "::ws::prog::HeapFree", 2, 0});
    }
  }
  // A texture fetch: tex2D<float>(t, x, y) gets its site as a last argument; so does a wmma
  // fragment's load or store (ws_program_wmma.h records the lanes' elements there) and an
  // asynchronous copy (ws_program_async.h: its global read, and its shared write where it lands).
  static const std::set<std::string> fetches = {"tex1Dfetch",
                                                "tex1D",
                                                "tex2D",
                                                "tex3D",
                                                "tex1DLayered",
                                                "tex2DLayered",
                                                "texCubemap",
                                                "texCubemapLayered",
                                                "__pipeline_memcpy_async"};
  // libcu++'s cuda:: (shim/cuda/pipeline, shim/cuda/barrier): a cuda::memcpy_async is a site;
  // so is a group's (shim/cooperative_groups/memcpy_async.h).
  const bool libcu = callee != nullptr && InNamespace(callee, "cuda");
  const bool group_copy = callee != nullptr && InNamespace(callee, "cooperative_groups") &&
                          (NameOf(callee) == "memcpy_async" || NameOf(callee) == "wait" ||
                           NameOf(callee) == "wait_prior");
  if ((NameOf(callee).rfind("__pipeline_", 0) == 0 || libcu || group_copy) &&
      out_->async_at.empty()) {
    const SourceLocation at = sm_.getExpansionLoc(e->getBeginLoc());
    if (at.isValid() && IsProgramFile(sm_.getFileID(at)))
      out_->async_at =
          DisplayName(sm_.getFileID(at)) + ":" + std::to_string(sm_.getExpansionLineNumber(at));
  }
  if (group_copy && out_->group_copy_at.empty()) {
    const SourceLocation at = sm_.getExpansionLoc(e->getBeginLoc());
    if (at.isValid() && IsProgramFile(sm_.getFileID(at)))
      out_->group_copy_at =
          DisplayName(sm_.getFileID(at)) + ":" + std::to_string(sm_.getExpansionLineNumber(at));
  }
  if (callee != nullptr && InNamespace(callee, "nvcuda") && out_->wmma_at.empty()) {
    const SourceLocation at = sm_.getExpansionLoc(e->getBeginLoc());
    if (at.isValid() && IsProgramFile(sm_.getFileID(at)))
      out_->wmma_at =
          DisplayName(sm_.getFileID(at)) + ":" + std::to_string(sm_.getExpansionLineNumber(at));
  }
  const bool wmma = callee != nullptr && InNamespace(callee, "nvcuda") &&
                    (NameOf(callee) == "load_matrix_sync" || NameOf(callee) == "store_matrix_sync");
  const bool copy = (libcu || group_copy) && NameOf(callee) == "memcpy_async";
  if ((fetches.count(NameOf(callee)) > 0 || wmma || copy) && e->getRParenLoc().isFileID()) {
    const CharSourceRange r = FileRange(e->getSourceRange());
    if (r.isValid()) {
      Access a;
      a.begin = Offset(r.getBegin());
      a.end = Offset(r.getEnd());
      a.access =
          NameOf(callee) == "store_matrix_sync" ? ProgramAccess::kStore : ProgramAccess::kLoad;
      if (wmma)
        Warn(e->getBeginLoc(),
             NameOf(callee) +
                 " is recorded as the requests an H200 makes where they were measured (from "
                 "shared memory: ldmatrix, or 8-byte accesses for a float accumulator); from "
                 "global memory a half or 8-bit fragment's widths are not yet checked against "
                 "the GPU (docs/PROGRAMS.md, \"Tensor cores\")");
      a.call = true;
      a.rparen = Offset(e->getRParenLoc());
      a.file = DisplayName(sm_.getFileID(r.getBegin()));
      a.line = sm_.getSpellingLineNumber(r.getBegin());
      a.column = sm_.getSpellingColumnNumber(r.getBegin());
      if (sm_.getSpellingLineNumber(r.getEnd()) == a.line)
        a.end_column = sm_.getSpellingColumnNumber(r.getEnd());
      a.text = Lexer::getSourceText(r, sm_, ctx_.getLangOpts()).str();
      accesses_.emplace(std::make_tuple(a.begin, a.end, 9), std::move(a));
    }
  }
  // assert() in device code: a failed one ends the launch with cudaErrorAssert and the program
  // goes on, as on a GPU (the macro's name becomes WS_DEVICE_ASSERT).
  if (NameOf(callee) == "__assert_fail" && e->getBeginLoc().isMacroID()) {
    SourceLocation at = e->getBeginLoc();
    while (at.isMacroID() &&
           !Lexer::getImmediateMacroName(at, sm_, ctx_.getLangOpts()).equals("assert"))
      at = sm_.getImmediateMacroCallerLoc(at);
    if (at.isMacroID()) {
      const SourceLocation name = sm_.getSpellingLoc(sm_.getImmediateExpansionRange(at).getBegin());
      if (name.isFileID() && IsProgramFile(sm_.getFileID(name)) &&
          renamed_.insert(Offset(name)).second)
        edits_.push_back({Offset(name), Offset(name) + 6, "WS_DEVICE_ASSERT", 2, 0});
    }
  }
  if (const char* macro = DeviceLibraryMacro(callee)) {
    const CharSourceRange r = FileRange(e->getCallee()->getSourceRange());
    if (r.isValid() && renamed_.insert(Offset(r.getBegin())).second)
      edits_.push_back({Offset(r.getBegin()), Offset(r.getEnd()), macro, 2, 0});
  }
  return true;
}

bool Collector::VisitFunctionDecl(FunctionDecl* f) {
  // Not a constexpr function: its body may hold no object with a destructor (and a constant
  // expression has no warp to form requests in).
  if (!WrittenDevice(f) || f->hasAttr<CUDAGlobalAttr>() || !f->doesThisDeclarationHaveABody() ||
      f->isConstexpr())
    return true;
  const auto* body = dyn_cast_or_null<CompoundStmt>(f->getBody());
  if (body == nullptr) return true;
  const CharSourceRange r = FileRange(SourceRange(body->getLBracLoc(), body->getLBracLoc()));
  if (r.isInvalid()) return true;
  const unsigned at = Offset(r.getEnd());
  if (!instrumented_.insert(at).second) return true;
  edits_.push_back({at, at, " ::ws::prog::Frame ws_frame(" + StaticId(r.getBegin()) + ");", 1, 0});
  return true;
}

bool Collector::VisitGCCAsmStmt(GCCAsmStmt* a) {
  if (!Recording()) return true;
  const std::string text = a->getAsmString()->getString().str();
  const char* fn = nullptr;
  std::string reg;
  if (a->getNumOutputs() == 1 && a->getNumInputs() == 0 && SpecialRegisterRead(text, &reg)) {
    fn = reg == "globaltimer" || reg == "globaltimer_lo" ? "::ws::prog::GlobalTimer()"
         : reg == "clock64"                              ? "::ws::prog::DeviceClock()"
         : reg == "clock"                                ? "::ws::prog::DeviceClock32()"
         : reg == "smid"                                 ? "::ws::prog::SmId()"
         : reg == "laneid"                               ? "::ws::prog::LaneId()"
         : reg == "warpid"                               ? "::ws::prog::WarpId()"
                                                         : nullptr;
  }
  const CharSourceRange r = FileRange(a->getSourceRange());
  const CharSourceRange out = a->getNumOutputs() == 1
                                  ? FileRange(a->getOutputExpr(0)->getSourceRange())
                                  : CharSourceRange();
  if (fn == nullptr || r.isInvalid() || out.isInvalid()) {
    Error(a->getAsmLoc(), "inline PTX (asm(\"" + text.substr(0, 40) +
                              "\")) is not supported (yet): Warpscope reads the special "
                              "registers %globaltimer, %clock, %clock64, %smid, %laneid and "
                              "%warpid only");
    return true;
  }
  const std::string target = Lexer::getSourceText(out, sm_, ctx_.getLangOpts()).str();
  const unsigned b = Offset(r.getBegin());
  if (renamed_.insert(b).second)
    edits_.push_back({b, Offset(r.getEnd()),
                      "((" + target + ") = static_cast<decltype(" + target + ")>(" + fn + "))", 2,
                      0});
  return true;
}

bool Collector::VisitDeclStmt(DeclStmt* s) {
  if (!in_device_) return true;
  for (Decl* d : s->decls()) {
    auto* v = dyn_cast<VarDecl>(d);
    if (v == nullptr || !v->hasAttr<CUDASharedAttr>()) continue;
    if (v->hasExternalStorage()) {
      // In a template too, whether or not it is instantiated (cuda-samples' SharedMemory<T>,
      // whose const operator no kernel calls): the host compiler refuses the declaration as
      // written wherever it is.
      CommentOut(s->getSourceRange(), v);
      continue;
    }
    if (in_dependent_) continue;
    const CharSourceRange r = FileRange(s->getSourceRange());
    if (r.isInvalid()) {
      Warn(s->getBeginLoc(), "__shared__ " + v->getName().str() +
                                 " is declared inside a macro: its accesses are not recorded");
      continue;
    }
    const unsigned at = Offset(r.getEnd());
    if (!shared_decls_.insert({at, v->getName().str()}).second) continue;
    // Each backend's shim says how an array is registered (ws_program.h, ws_program_cuda.h).
    edits_.push_back({at, at,
                      " WS_PROGRAM_SHARED(" + v->getName().str() + ", " +
                          std::to_string(shared_decls_.size()) + "u);",
                      1, 0});
  }
  return true;
}

bool Collector::VisitVarDecl(VarDecl* v) {
  if (IsShadowingBuiltin(v)) RenameShadow(v->getLocation(), v->getName().str());
  if (!v->isFileVarDecl() || isa<ParmVarDecl>(v)) return true;
  if (!IsProgramFile(sm_.getFileID(sm_.getExpansionLoc(v->getLocation())))) return true;
  if (v->hasAttr<CUDASharedAttr>() && v->hasExternalStorage()) {
    CommentOut(v->getSourceRange(), v, /*to_semicolon=*/true);
    return true;
  }
  const bool constant = v->hasAttr<CUDAConstantAttr>();
  if (!(constant || v->hasAttr<CUDADeviceAttr>()) || v->hasExternalStorage() ||
      IsBuiltinVariable(v) || v->isTemplated())
    return true;
  const SourceLocation semi = AfterSemicolon(v->getEndLoc());
  if (semi.isInvalid()) {
    Warn(v->getLocation(), v->getName().str() + " is declared inside a macro: not recorded");
    return true;
  }
  const std::string n = v->getName().str();
  const unsigned at = Offset(semi);
  edits_.push_back({at, at,
                    " static ::ws::prog::Symbol ws_symbol_" + n + "(&" + n + ", sizeof(" + n +
                        "), \"" + n + "\", " + (constant ? "2u" : "0u") + ");",
                    1, 0});
  return true;
}

bool Collector::VisitDeclRefExpr(DeclRefExpr* e) {
  auto* v = dyn_cast<VarDecl>(e->getDecl());
  if (IsShadowingBuiltin(v)) {
    RenameShadow(e->getLocation(), v->getName().str());
    return true;
  }
  if (v == nullptr || !dynamic_.count(v->getCanonicalDecl())) return true;
  const CharSourceRange r = FileRange(e->getSourceRange());
  if (r.isInvalid()) {
    // Spelled in a macro's body: the name cannot become the launch's dynamic shared memory there
    // (the macro may be used elsewhere), and the declaration it named is gone.
    const SourceLocation at = sm_.getExpansionLoc(e->getLocation());
    if (IsProgramFile(sm_.getFileID(at)) && macro_errors_.insert(Offset(at)).second)
      Error(at, "extern __shared__ " + v->getName().str() +
                    " used inside a macro is not supported (yet): write the use out");
    return true;
  }
  const unsigned b = Offset(r.getBegin()), end = Offset(r.getEnd());
  if (!dynamic_uses_.insert(b).second) return true;
  edits_.push_back(
      {b, end, "(::ws::prog::Dyn<" + dynamic_.at(v->getCanonicalDecl()) + ">())", 2, 0});
  return true;
}

}  // namespace ws::rewrite_internal
