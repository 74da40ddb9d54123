// The cooperative groups a kernel's text uses, as the SIMT check sees them (collector_simt.h):
// the shim's classes by name, a tile's threads, a call that makes or acts on a multi-warp tile,
// a thread_block's own queries, and what a tile's call is (a meeting or a lane's query).
#include "collector_simt.h"

namespace ws::rewrite_internal {

// A cooperative-groups class of the shim's, by name ("thread_block"); "" for anything else.
std::string GroupClass(QualType t) {
  const CXXRecordDecl* r = t.getNonReferenceType()->getAsCXXRecordDecl();
  if (r == nullptr || r->getIdentifier() == nullptr || !InNamespace(r, "cooperative_groups"))
    return "";
  return r->getName().str();
}

// The threads of a thread_block_tile<N> type (N), 0 for any other type.
static unsigned TileThreads(QualType t) {
  const auto* r = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      t.getNonReferenceType()->getAsCXXRecordDecl());
  if (r == nullptr || GroupClass(t) != "thread_block_tile" || r->getTemplateArgs().size() < 1 ||
      r->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
    return 0;
  return static_cast<unsigned>(r->getTemplateArgs()[0].getAsIntegral().getZExtValue());
}

// Does call `c` into cooperative groups make, take or act on a tile of more than 32 threads?
bool MultiWarpTile(const CallExpr* c) {
  const FunctionDecl* f = c->getDirectCallee();
  if (f == nullptr || !InNamespace(f, "cooperative_groups")) return false;
  if (TileThreads(f->getReturnType()) > 32) return true;
  if (const auto* m = dyn_cast<CXXMemberCallExpr>(c);
      m != nullptr && m->getImplicitObjectArgument() != nullptr &&
      TileThreads(m->getImplicitObjectArgument()->getType()) > 32)
    return true;
  for (const Expr* a : c->arguments())
    if (TileThreads(a->getType()) > 32) return true;
  return false;
}

// A call into cooperative groups the SIMT engine runs lane by lane: a thread_block's own (its
// rank, size and indices read the running lane) and this_thread_block().
bool BlockQuery(const FunctionDecl* f) {
  if (f == nullptr || f->getIdentifier() == nullptr) return false;
  if (f->getName() == "this_thread_block") return true;
  const auto* m = dyn_cast<CXXMethodDecl>(f);
  return m != nullptr && m->getName() != "sync" && m->getParent()->getIdentifier() != nullptr &&
         m->getParent()->getName() == "thread_block";
}

// A thread_block_tile's call: kTileMeets where the tile's lanes meet (its sync, shuffles and
// votes, and cg::sync of a tile: a warp-level meeting, as __syncwarp and __shfl_sync are),
// kTileQuery where each lane reads its own (its rank and size, tiled_partition<N>), else kNotTile.
TileCallKind TileCall(const CallExpr* c) {
  const FunctionDecl* f = c->getDirectCallee();
  if (f == nullptr || f->getIdentifier() == nullptr || !InNamespace(f, "cooperative_groups"))
    return TileCallKind::kNotTile;
  const std::string n = f->getName().str();
  if (const auto* m = dyn_cast<CXXMethodDecl>(f)) {
    if (m->getParent()->getIdentifier() == nullptr ||
        m->getParent()->getName() != "thread_block_tile")
      return TileCallKind::kNotTile;
    static const std::set<std::string> meets = {"sync",     "shfl", "shfl_up", "shfl_down",
                                                "shfl_xor", "any",  "all",     "ballot"};
    static const std::set<std::string> queries = {
        "thread_rank", "size", "num_threads", "meta_group_rank", "meta_group_size", "is_valid"};
    if (meets.count(n) > 0) return TileCallKind::kTileMeets;
    return queries.count(n) > 0 ? TileCallKind::kTileQuery : TileCallKind::kNotTile;
  }
  if (n == "sync" && c->getNumArgs() >= 1 &&
      GroupClass(c->getArg(0)->getType()) == "thread_block_tile")
    return TileCallKind::kTileMeets;
  if (n == "tiled_partition" && GroupClass(f->getReturnType()) == "thread_block_tile")
    return TileCallKind::kTileQuery;
  return TileCallKind::kNotTile;
}

}  // namespace ws::rewrite_internal
