// Only the Reset Password screen's chunk loads these endpoints, not /login.
export {
  useRequestPasswordResetMutation,
  useResetPasswordMutation,
} from './generated/recovery.gen';
