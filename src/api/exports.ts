// Every list's Download CSV: a signed link to the file, made with the session (no cache: each
// download asks for a fresh one).
export { useCreateExportLinkMutation } from './generated/exports.gen';
export type { CreateExportLinkRequest, ExportKind } from './generated/exports.gen';
