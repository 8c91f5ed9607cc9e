/*
 * The toasts' renderer and its transitions, reached only through a dynamic import (see Toasts in
 * SignedInProviders): the store that shows a toast stays in the frame, the drawing waits for the
 * first toast.
 */
export { Notifications } from '@mantine/notifications';
