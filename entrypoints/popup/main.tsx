import { render } from 'preact';
import { App } from '../../components/popup/App';
import { applyBrand } from '../../utils/brand';
import './style.css';

applyBrand();
render(<App />, document.getElementById('app')!);
