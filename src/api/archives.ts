// The settings panel's Download: an archive of the whole account, asked for with the session and
// prepared in the background; the notification downloads it through a signed link made on demand.
export {
  useCreateArchiveLinkMutation,
  useRequestAccountArchiveMutation,
} from './generated/archives.gen';
