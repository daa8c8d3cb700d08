import { useId, type ReactNode } from 'react';
import Modal, { type ModalProps } from 'react-bootstrap/Modal';
import { useT } from '../i18n/i18n';

interface Props extends Omit<ModalProps, 'title'> {
  title: ReactNode;
  children?: ReactNode;
}

/** A centred modal named by its title (aria-labelledby), so it is found as a named dialog. */
export function TitledModal({ title, children, ...props }: Props) {
  const t = useT();
  const titleId = useId();
  return (
    <Modal centered aria-labelledby={titleId} {...props}>
      <Modal.Header closeButton closeLabel={t('common.close')}>
        {/* A title holding an id (a delivery's, a transaction's) wraps on a phone instead of
            pushing the close button off screen. */}
        <Modal.Title id={titleId} as="h2" className="h5 text-break">
          {title}
        </Modal.Title>
      </Modal.Header>
      {children}
    </Modal>
  );
}
