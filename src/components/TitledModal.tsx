import { useId, type ReactNode } from 'react';
import Modal, { type ModalProps } from 'react-bootstrap/Modal';

interface Props extends Omit<ModalProps, 'title'> {
  title: ReactNode;
  children?: ReactNode;
}

/** A centred modal named by its title (aria-labelledby), so it is found as a named dialog. */
export function TitledModal({ title, children, ...props }: Props) {
  const titleId = useId();
  return (
    <Modal centered aria-labelledby={titleId} {...props}>
      <Modal.Header closeButton>
        <Modal.Title id={titleId} as="h2" className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      {children}
    </Modal>
  );
}
